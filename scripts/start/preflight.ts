/**
 * The supervisor's first step (scripts/start/group.ts), run as a process of its own that ends when it
 * is done, so that the long-running supervisor never loads what it uses (zod and the settings'
 * schemas, ioredis, pg, Prisma's CLI): reads .env, checks every process's configuration, Redis,
 * the ports and the database, and applies pending migrations, saying what it did. It then sends
 * the supervisor the settings it needs (`{ preflight }`) and exits 0; on a problem it prints one
 * sentence saying what to fix and exits 1.
 */
import { listenHost } from "../../src/listen-address.js";
import { redisTopology } from "../../src/redis-connection.js";
import { checkPortFree, checkRedis } from "./dependencies.js";
import { migrationTarget } from "./migrations.js";
import { prepareDatabase, readConfiguration } from "./prepare.js";
import { StartupProblem } from "./problem.js";

/** What the supervisor learns from the preflight. */
export interface Preflight {
  /** The API's address (HOST; undefined: every interface). */
  host: string | undefined;
  /** The API's port (0: any free port; the API says which). */
  port: number;
  /** How long the processes get to stop before they are killed. */
  stopTimeoutMs: number;
  /** PUBLIC_URL, when set (else the API's own address): where the demo request's pay page is. */
  publicUrl: string | null;
}

const say = (line: string) => console.log(`payreq: ${line}`);

try {
  const { api, worker } = readConfiguration();
  await checkRedis(redisTopology(api));
  const host = listenHost(api);
  await checkPortFree(host, api.PORT, "PORT");
  // METRICS_PORT=0 serves no metrics port; PORT=0 is any free one: neither is taken.
  await checkPortFree(host, api.METRICS_PORT, "METRICS_PORT");
  await prepareDatabase(migrationTarget(api), say);
  const preflight: Preflight = {
    host,
    port: api.PORT,
    // The worker waits SHUTDOWN_TIMEOUT for deliveries in flight, then closes its connections.
    stopTimeoutMs: worker.SHUTDOWN_TIMEOUT + 10_000,
    publicUrl: api.PUBLIC_URL?.replace(/\/+$/, "") ?? null,
  };
  await new Promise<void>((resolve) => (process.send ? process.send({ preflight }, undefined, {}, () => resolve()) : resolve()));
} catch (err) {
  if (!(err instanceof StartupProblem)) throw err;
  console.error(`payreq: ${err.message}`);
  process.exitCode = 1;
}
