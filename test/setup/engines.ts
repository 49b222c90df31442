/**
 * Global setup of the topology project (vitest.config.ts): the engines its files share, started
 * once per run on free loopback ports, side by side, and stopped at the end. Each file reads where
 * they are with `inject("engines")`. Engines a test must break (a Sentinel failover, a Redis
 * restart, API processes killed) are started by that file alone.
 */
import type { TestProject } from "vitest/node";
import { startPgbouncer } from "../../scripts/engines/pgbouncer.js";
import { copyDatabase, startPostgresReplica } from "../../scripts/engines/postgres-replica.js";
import { testDatabases } from "../../vitest.config.js";
import { startRedisCluster } from "../../scripts/engines/redis-cluster.js";

export interface Engines {
  /** PgBouncer in transaction mode in front of the system PostgreSQL (scripts/engines/pgbouncer.ts). */
  pgbouncer: { port: number };
  /**
   * A PostgreSQL primary and a streaming replica of it (scripts/engines/postgres-replica.ts), with
   * `template`, a migrated database on the primary to make a file's own from (replicatedDatabase).
   */
  replica: { primaryUrl: string; replicaUrl: string; template: string };
  /** A Redis Cluster of three masters (scripts/engines/redis-cluster.ts): REDIS_CLUSTER_NODES for it. */
  redisCluster: { nodes: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    engines: Engines;
  }
}

export default async function setup(project: TestProject) {
  const started: { stop(): Promise<void> }[] = [];
  const replica = startReplica(started);
  const redisCluster = startRedisCluster().then((cluster) => (started.push(cluster), cluster));
  const pgbouncer = await startPgbouncer();
  started.push(pgbouncer);
  const engines: Engines = {
    pgbouncer: { port: pgbouncer.port },
    replica: await replica,
    redisCluster: { nodes: (await redisCluster).nodes },
  };
  project.provide("engines", engines);
  return async () => {
    await Promise.all(started.map((engine) => engine.stop()));
  };
}

/** The replica engine, with a copy of the run's migrated template (test/setup/global.ts made it). */
async function startReplica(started: { stop(): Promise<void> }[]): Promise<Engines["replica"]> {
  const engine = await startPostgresReplica();
  started.push(engine);
  const template = "payreq_template";
  await copyDatabase(testDatabases.templateUrl, engine, template);
  return { primaryUrl: engine.primaryUrl, replicaUrl: engine.replicaUrl, template };
}
