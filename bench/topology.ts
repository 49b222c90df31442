/**
 * What the topologies of docs/scaling.md cost, within one run: the same REST requests.info and
 * requests.pay load against API processes that differ in one thing (a single Redis or a 3-master
 * Redis Cluster; PostgreSQL directly, directly without named prepared statements, or through
 * PgBouncer in transaction mode), and the same notification bursts through workers that differ
 * alike; and npm start's group with one API process against one with two. The engines are
 * started here, on free loopback ports, as the topology tests start them.
 */
import type { Options } from "autocannon";
import { parseEnv, sharedEnv } from "../src/env.js";
import { connectRedis, redisTopology } from "../src/redis-connection.js";
import { WEBHOOK_QUEUE } from "../worker/queues.js";
import { startPgbouncer, throughPgbouncer } from "../scripts/engines/pgbouncer.js";
import { startRedisCluster } from "../scripts/engines/redis-cluster.js";
import { compareAlternating, printCompared, type Compared } from "./alternating.js";
import { infoOfAny, payEach, type Bench } from "./calls.js";
import { onCleanUp } from "./lifecycle.js";
import { idSupply, waitUntil } from "./load.js";
import { poolSize, type BenchOptions } from "./options.js";
import { startProcess, startServer } from "./processes.js";
import { seedRequests } from "./seed.js";
import { startService } from "./service.js";
import { deliveryBurst, notificationLatency, startWebhookReceiver } from "./webhooks.js";

const ROUNDS = 2;
const REDIS = ["single", "cluster"] as const;
const POSTGRES = ["direct", "unprepared", "pooler"] as const;
const PROCESSES = ["one", "two"] as const;
type RedisVariant = (typeof REDIS)[number];
type PostgresVariant = (typeof POSTGRES)[number];

export interface TopologyFigures {
  redis: Compared<RedisVariant>;
  postgres: Compared<PostgresVariant>;
  /** Notifications delivered and recorded per second by one worker of each variant (mean of its bursts), and ÷ the first. */
  webhooks: Record<string, { perSecond: number; ratio: number }>;
  /** The service's own group (API_PROCESSES=1) and a second group of API_PROCESSES=2, at 32 connections; CPU is both processes'. */
  apiProcesses: Compared<(typeof PROCESSES)[number]>;
}

export async function measureTopology(bench: Bench, env: NodeJS.ProcessEnv, options: BenchOptions): Promise<TopologyFigures> {
  if (env.REDIS_CLUSTER_NODES || env.REDIS_SENTINELS)
    throw new Error("bench: the topology section compares a Cluster with a single Redis: run the bench with REDIS_URL alone");
  const [cluster, pgbouncer] = await Promise.all([startRedisCluster(), startPgbouncer({ poolSize: 20 })]);
  onCleanUp("stop the topology section's Redis Cluster", () => cluster.stop());
  onCleanUp("stop the topology section's PgBouncer", () => pgbouncer.stop());
  const databaseUrl = env.DATABASE_URL!;
  // Each variant's workers have queue keys of their own, under the run's prefix (deleted with it);
  // on the Cluster, which is thrown away at the end, a hash tag.
  const queues = (name: string) => ({ QUEUE_PREFIX: `${env.QUEUE_PREFIX}:${name}` });
  const variantEnv = {
    single: queues("single"),
    cluster: { REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: "{bench}" },
    direct: queues("direct"),
    unprepared: { DATABASE_PREPARED_STATEMENTS: "false", ...queues("unprepared") },
    pooler: {
      DATABASE_URL: throughPgbouncer(databaseUrl, pgbouncer.port),
      DATABASE_DIRECT_URL: databaseUrl,
      DATABASE_PREPARED_STATEMENTS: "false",
      ...queues("pooler"),
    },
  } satisfies Record<RedisVariant | PostgresVariant, NodeJS.ProcessEnv>;

  const apiEnv = { ...env, PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "warn", OTEL_TRACES_EXPORTER: "none" };
  const startApis = async <V extends RedisVariant | PostgresVariant>(names: readonly V[]) => {
    const started = names.map((name) => [name, startServer("src/api/server.ts", { ...apiEnv, ...variantEnv[name] })] as const);
    const variants = {} as Record<V, { url: string; pid: number }>;
    for (const [name, api] of started) variants[name] = { url: `http://127.0.0.1:${await api.port}`, pid: api.child.pid! };
    return { variants, stop: () => Promise.all(started.map(([, api]) => api.stop())) };
  };

  const { headers, payerHeaders, merchantId, sql, timing } = bench;
  const size = poolSize(options);
  const runs = (variants: number) => (variants * ROUNDS + variants) * size;
  const payable = (
    await seedRequests(sql, merchantId, runs(REDIS.length) + runs(POSTGRES.length) + runs(PROCESSES.length), { paid: false })
  ).requestIds;
  const readable = payable.slice(0, 1000);
  const nextPayable = idSupply(payable, "requests for the topology section's pays");
  const operations: Record<string, (url: string) => Options> = {
    "requests.info": (url) => infoOfAny(url, headers, readable),
    "requests.pay": (url) => payEach(url, payerHeaders, nextPayable),
  };

  console.log("  Redis: a single node, and a 3-master Cluster (sharded pub/sub, hash-tagged queues)");
  const redisApis = await startApis(REDIS);
  const redis = await compareAlternating("topology.redis", redisApis.variants, operations, timing, { rounds: ROUNDS });
  await redisApis.stop();
  printCompared(redis, REDIS);

  console.log("  PostgreSQL: direct, direct without named prepared statements, and through PgBouncer (transaction mode)");
  const postgresApis = await startApis(POSTGRES);
  const postgres = await compareAlternating("topology.postgres", postgresApis.variants, operations, timing, {
    rounds: ROUNDS,
  });
  await postgresApis.stop();
  printCompared(postgres, POSTGRES);

  const webhooks = await compareWorkers(bench, env, options, variantEnv);

  // After the workers': the second group has a worker of its own, which would share their outbox.
  console.log("  API processes: npm start's group with API_PROCESSES=1 (the service's), and another with API_PROCESSES=2");
  const two = await startService({ ...env, API_PROCESSES: "2" });
  const apiProcesses = await compareAlternating(
    "topology.processes",
    { one: { url: bench.api, pid: bench.pids.api }, two: { url: two.url, pid: two.processes.apis.map((api) => api.pid) } },
    {
      "requests.info": (url) => ({ ...infoOfAny(url, headers, readable), connections: 32 }),
      "requests.pay": (url) => ({ ...payEach(url, payerHeaders, nextPayable), connections: 32 }),
    },
    timing,
    { rounds: ROUNDS, connections: 32 },
  );
  await two.stop();
  printCompared(apiProcesses, PROCESSES);
  return { redis, postgres, webhooks, apiProcesses };
}

/**
 * One worker at a time per variant (the service's own worker is paused meanwhile, so the variant's
 * worker alone drains the outbox), in rounds whose order reverses: each start delivers an unmeasured
 * burst, then a measured one.
 */
async function compareWorkers(
  bench: Bench,
  env: NodeJS.ProcessEnv,
  options: BenchOptions,
  variantEnv: Record<"single" | "cluster" | "pooler", NodeJS.ProcessEnv>,
): Promise<TopologyFigures["webhooks"]> {
  const names = ["single", "cluster", "pooler"] as const;
  const receiver = await startWebhookReceiver();
  // A notification to this receiver for the bursts to copy, delivered by the service's own worker,
  // which is paused only once it holds no job (a job paused in flight would lose its lock).
  await notificationLatency(bench, receiver);
  const redis = connectRedis(redisTopology(parseEnv(sharedEnv, env)), { lazyConnect: true });
  await waitUntil(
    () => "the service's worker to finish its delivery jobs",
    async () => (await redis.llen(`${env.QUEUE_PREFIX}:${WEBHOOK_QUEUE}:active`)) === 0,
    30_000,
    20,
  );
  redis.disconnect();
  const measured: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  process.kill(bench.pids.worker, "SIGSTOP");
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const worker = startProcess("worker/index.ts", { ...env, LOG_LEVEL: "warn", ...variantEnv[name] });
        await deliveryBurst(bench.sql, receiver, options.deliveries / 4);
        measured[name]!.push(await deliveryBurst(bench.sql, receiver, options.deliveries));
        await worker.stop();
      }
    }
  } finally {
    process.kill(bench.pids.worker, "SIGCONT");
    receiver.close();
  }
  const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  const first = mean(measured[names[0]]!);
  const figures = Object.fromEntries(
    names.map((name) => {
      const perSecond = mean(measured[name]!);
      return [name, { perSecond, ratio: Number((perSecond / first).toFixed(2)) }];
    }),
  );
  console.log("  Webhooks: one worker per variant, alone on the outbox (mean of its bursts)");
  for (const name of names)
    console.log(`    ${name.padEnd(10)} ${figures[name]!.perSecond} notifications/s (${figures[name]!.ratio}× ${names[0]})`);
  return figures;
}
