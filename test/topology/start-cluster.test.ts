/**
 * `npm start` as an operator runs it on a Redis Cluster: REDIS_CLUSTER_NODES, and a queue prefix
 * that is a hash tag (anything else is refused before a process starts).
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { askNode, masterOf } from "../../scripts/engines/redis-cluster.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import { startGroup } from "../start-group.js";
import { payAndAwaitNotification, startReceiver, until } from "../worker/harness.js";

const run = promisify(execFile);
const REDIS_CLUSTER_NODES = inject("engines").redisCluster.nodes;

/** What `npm start` with `env` says on standard error when it refuses to start (exit code 1, within 30 s). */
async function refusal(env: Record<string, string>): Promise<string> {
  const refused = await run("npm", ["start"], {
    env: { ...process.env, PORT: "0", METRICS_PORT: "0", ...env },
    timeout: 30_000,
  }).catch((error: { code: number; stderr: string }) => error);
  expect("code" in refused && refused.code).toBe(1);
  return refused.stderr.trim();
}

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
    const group = await startGroup("npm", ["start"], {
      REDIS_CLUSTER_NODES,
      QUEUE_PREFIX: queuePrefix,
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
      expect(transaction).toMatchObject({
        state: "completed",
        request: { requestId },
      });
      // Its worker's queues are on the Cluster, on the master of their hash tag.
      const seed = Number(REDIS_CLUSTER_NODES.split(",")[0]!.split(":")[1]);
      expect(await askNode(await masterOf(seed, queuePrefix), "KEYS", `${queuePrefix}:*`)).not.toEqual([]);
    } finally {
      await receiver.close();
    }
    expect(await group.stop("SIGTERM")).toBe(0);
    expect(group.processes()).toEqual([]);
  });
});
