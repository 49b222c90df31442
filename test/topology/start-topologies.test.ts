/**
 * `npm start` as an operator runs it on a Redis Cluster (REDIS_CLUSTER_NODES, and a queue prefix
 * that is a hash tag: anything else is refused before a process starts) and on a Sentinel group
 * (REDIS_SENTINELS, REDIS_SENTINEL_NAME): it starts, and a request paid through it is notified.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { askNode, masterOf } from "../../scripts/engines/redis-cluster.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import { startSentinelGroup, type SentinelGroup } from "../../scripts/engines/redis-sentinel.js";
import { refusal, startGroup } from "../start-group.js";
import { until } from "../until.js";
import { payAndAwaitNotification, startReceiver } from "../worker/harness.js";

const REDIS_CLUSTER_NODES = inject("engines").redisCluster.nodes;

describe("npm start on a Redis Cluster", { timeout: 120_000 }, () => {
  it("refuses a queue prefix that is not a hash tag, and a Cluster it cannot reach, in one sentence each", async () => {
    expect(await refusal({ REDIS_CLUSTER_NODES, QUEUE_PREFIX: "payreq" })).toBe(
      "payreq: The configuration is invalid: QUEUE_PREFIX (on a Redis Cluster (REDIS_CLUSTER_NODES) it must be a hash tag such as {payreq}). Fix the environment or .env (see .env.example) and start again.",
    );
    const [closed] = await freePorts(1);
    expect(await refusal({ REDIS_CLUSTER_NODES: `127.0.0.1:${closed}`, QUEUE_PREFIX: "{payreq}" })).toBe(
      `payreq: Cannot reach the Redis Cluster at 127.0.0.1:${closed}: none of its nodes answered. Start the Cluster or set REDIS_CLUSTER_NODES to its nodes.`,
    );
  });

  it("starts, and a request paid through it is notified, signed", async () => {
    const queuePrefix = `{test-${randomUUID().slice(0, 8)}}`;
    const seed = Number(REDIS_CLUSTER_NODES.split(",")[0]!.split(":")[1]);
    await startPayAndStop({ REDIS_CLUSTER_NODES, QUEUE_PREFIX: queuePrefix }, async () => {
      // Its worker's queues are on the Cluster, on the master of their hash tag.
      expect(await askNode(await masterOf(seed, queuePrefix), "KEYS", `${queuePrefix}:*`)).not.toEqual([]);
    });
  });
});

describe("npm start on a Redis Sentinel group", { timeout: 120_000 }, () => {
  let group: SentinelGroup;
  beforeAll(async () => {
    group = await startSentinelGroup(`payreq-${randomUUID().slice(0, 8)}`);
  });
  afterAll(() => group?.stop());

  it("starts, and a request paid through it is notified, signed", async () => {
    const queuePrefix = `test-${randomUUID().slice(0, 8)}`;
    await startPayAndStop(
      // REDIS_URL names no server, only the database: every connection must go through the sentinels.
      {
        REDIS_SENTINELS: group.sentinelsSetting,
        REDIS_SENTINEL_NAME: group.name,
        REDIS_URL: "redis://127.0.0.1:1/0",
        QUEUE_PREFIX: queuePrefix,
      },
      async () => {
        // Its worker's queues are on the master the sentinels name.
        expect(await askNode((await group.master()).port, "KEYS", `${queuePrefix}:*`)).not.toEqual([]);
      },
    );
  });
});

/**
 * Runs `npm start` with `env`, pays a request of its demo merchant that names a receiver on
 * loopback, checks the signed notification, runs `check` while the group runs, and stops it as
 * Ctrl-C does: it exits 0 and leaves nothing running.
 */
async function startPayAndStop(env: Record<string, string>, check: () => Promise<void>): Promise<void> {
  const group = await startGroup("npm", ["start"], {
    ...env,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    WEBHOOK_ISSUER: "payreq-test",
  });
  const [, merchantId, apiKey] = (await until(
    () => /merchantId\s+(\S+)\n\s+merchant key\s+(mk_\S+)/.exec(group.output()),
    (found) => found !== null,
    20_000,
    "the demo merchant's keys",
  ))!;
  const receiver = await startReceiver();
  try {
    const { requestId, transaction } = await payAndAwaitNotification(
      group.base,
      { merchantId: merchantId!, apiKey: apiKey! },
      receiver,
    );
    expect(transaction).toMatchObject({ state: "completed", request: { requestId } });
    await check();
  } finally {
    await receiver.close();
  }
  expect(await group.stop("SIGTERM")).toBe(0);
  expect(group.processes()).toEqual([]);
}
