/**
 * The supervisor's first step (scripts/start/supervisor.ts), run as a process of its own that ends when it
 * is done, so that the long-running supervisor never loads what it uses (zod and the settings'
 * schemas, ioredis, pg, Prisma's CLI): reads .env, checks every process's configuration, Redis,
 * the ports and the database, and applies pending migrations, saying what it did. It then sends
 * the supervisor the settings it needs (`{ preflight }`) and exits 0; on a problem it prints one
 * sentence saying what to fix and exits 1. With `--api` (a group of API processes without the
 * worker, as the image runs them) it checks the API's configuration and its ports only: the
 * migration and the worker run elsewhere, and the API processes wait for Redis themselves.
 */
import { availableParallelism } from "node:os";
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
  /** How many API processes share the port (API_PROCESSES). */
  apiProcesses: number;
  /** METRICS_PORT, where the supervisor serves the metrics of all of them; null: none. */
  metricsPort: number | null;
}

/**
 * API_PROCESSES when unset: one per core but one. An API process is one JavaScript thread, and a
 * read costs it more CPU than PostgreSQL (docs/scaling.md), so processes up to the cores carry
 * more calls; the core left over keeps the worker (which signs every notification), the
 * supervisor and the kernel's network work from queueing behind busy API processes. A host that
 * runs PostgreSQL too should set it lower: a payment costs PostgreSQL more CPU than the API.
 */
const defaultApiProcesses = () => Math.max(1, availableParallelism() - 1);

const say = (line: string) => console.log(`payreq: ${line}`);

try {
  const apiOnly = process.argv.includes("--api");
  const { api, worker } = readConfiguration({ apiOnly });
  if (!apiOnly) await checkRedis(redisTopology(api));
  const host = listenHost(api);
  await checkPortFree(host, api.PORT, "PORT");
  // METRICS_PORT=0 serves no metrics port; PORT=0 is any free one: neither is taken.
  await checkPortFree(host, api.METRICS_PORT, "METRICS_PORT");
  if (!apiOnly) await prepareDatabase(migrationTarget(api), say);
  const preflight: Preflight = {
    host,
    port: api.PORT,
    // Each process waits SHUTDOWN_TIMEOUT for its calls or deliveries in flight, then closes its connections.
    stopTimeoutMs: Math.max(api.SHUTDOWN_TIMEOUT, worker?.SHUTDOWN_TIMEOUT ?? 0) + 10_000,
    publicUrl: api.PUBLIC_URL?.replace(/\/+$/, "") ?? null,
    apiProcesses: api.API_PROCESSES ?? defaultApiProcesses(),
    metricsPort: api.METRICS_PORT || null,
  };
  await new Promise<void>((resolve) => (process.send ? process.send({ preflight }, undefined, {}, () => resolve()) : resolve()));
} catch (err) {
  if (!(err instanceof StartupProblem)) throw err;
  console.error(`payreq: ${err.message}`);
  process.exitCode = 1;
}
