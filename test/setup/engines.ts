/**
 * Global setup of the topology project (vitest.config.ts): the engines its files share, started
 * once per run on free loopback ports, side by side, and stopped at the end. Each file reads where
 * they are with `inject("engines")`. Engines a test must break (a Sentinel failover, a Redis
 * restart, API processes killed) are started by that file alone.
 */
import type { TestProject } from "vitest/node";
import { startPgbouncer } from "../engines/pgbouncer.js";
import { startRedisCluster } from "../engines/redis-cluster.js";

export interface Engines {
  /** PgBouncer in transaction mode in front of the system PostgreSQL (test/engines/pgbouncer.ts). */
  pgbouncer: { port: number };
  /** A Redis Cluster of three masters (test/engines/redis-cluster.ts): REDIS_CLUSTER_NODES for it. */
  redisCluster: { nodes: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    engines: Engines;
  }
}

export default async function setup(project: TestProject) {
  const started: { stop(): Promise<void> }[] = [];
  const redisCluster = startRedisCluster().then((cluster) => (started.push(cluster), cluster));
  const pgbouncer = await startPgbouncer();
  started.push(pgbouncer);
  const engines: Engines = { pgbouncer: { port: pgbouncer.port }, redisCluster: { nodes: (await redisCluster).nodes } };
  project.provide("engines", engines);
  return async () => {
    await Promise.all(started.map((engine) => engine.stop()));
  };
}
