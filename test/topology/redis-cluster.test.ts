import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { channelOf } from "../../src/pubsub/request-changes.js";
import { built } from "../built.js";
import { askNode, masterOf } from "../../scripts/engines/redis-cluster.js";
import { buildLimitedMerchant, buildMerchant, buildRequest } from "../factories.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";
import { startReceiver, verifyNotification } from "../worker/harness.js";
import { openStream } from "../graphql/subscriptions/sse.js";
import { pay, startService } from "./service.js";

const run = promisify(execFile);
const nodes = inject("engines").redisCluster.nodes;
const ports = nodes.split(",").map((node) => Number(node.split(":")[1]));
/** The settings every process of this file runs with: the Cluster, and streams few enough to count. */
const clusterEnv = { REDIS_CLUSTER_NODES: nodes, SUBSCRIPTIONS_PER_KEY: "2" };
/** This file's queues, under a hash tag of their own so that runs sharing the Cluster do not meet. */
const queuePrefix = `{test-${randomUUID().slice(0, 8)}}`;

let service: Awaited<ReturnType<typeof startService>>;
let other: Awaited<ReturnType<typeof startApiProcess>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
  [service, other] = await Promise.all([startService(clusterEnv, { QUEUE_PREFIX: queuePrefix }), startApiProcess(clusterEnv)]);
});
afterAll(async () => {
  other?.kill();
  await service?.stop();
  await receiver?.close();
});

const ownerOf = (key: string) => masterOf(ports[0]!, key);

const info = (base: string, apiKey: string, requestId: string) =>
  fetch(`${base}/api/requests.info?requestId=${requestId}`, { headers: { "x-api-key": apiKey } });

describe("the service on a Redis Cluster (REDIS_CLUSTER_NODES, QUEUE_PREFIX a hash tag)", () => {
  it("delivers a paid request's signed notification, and a subscription on another API process hears it over one shard's channel", async () => {
    const { merchant, request } = await buildRequest({ notifyUrl: receiver.url });
    const stream = openStream(other.base, merchant.apiKey, "127.0.0.1", { requestId: request.id });
    try {
      expect((await stream.opened).status).toBe(200);
      const channel = channelOf(merchant.merchantId);
      const owner = await ownerOf(channel);
      const shardChannels = (port: number) => askNode(port, "PUBSUB", "SHARDCHANNELS", channel) as Promise<string[]>;
      await until(
        () => shardChannels(owner),
        (channels) => channels.includes(channel),
        10_000,
        `${channel} on its shard`,
      );
      for (const port of ports) {
        if (port !== owner) expect(await shardChannels(port)).toEqual([]);
        // Not a cluster-wide channel, which every node would carry.
        expect(await askNode(port, "PUBSUB", "CHANNELS", channel)).toEqual([]);
      }

      expect((await pay(service.api.base, merchant, request.id)).status).toBe(200);
      await stream.heard((events) => events.some((e) => e.id === request.id && e.status === "PAID"), "the payment");
      const [notification] = await until(
        async () => receiver.received,
        (received) => received.length > 0,
        15_000,
        "the notification",
      );
      const claims = await verifyNotification(notification!.token);
      expect(claims.transaction).toMatchObject({ state: "completed", request: { requestId: request.id } });
      // The worker's queues are on the Cluster, all on the master of their hash tag.
      expect(await askNode(await ownerOf(queuePrefix), "KEYS", `${queuePrefix}:*`)).not.toEqual([]);
    } finally {
      stream.close();
    }
  });

  it("refuses a key past its limit across two API processes, counting on the Cluster", async () => {
    const merchant = await buildLimitedMerchant(4);
    const { request } = await buildRequest({ merchant });
    const bases = [service.api.base, other.base];
    const statuses: number[] = [];
    for (let call = 0; call < 6; call++) statuses.push((await info(bases[call % 2]!, merchant.apiKey, request.id)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const counter = `payreq:rate:{key:${keyPrefixOf(merchant.apiKey)}}:${Math.floor(Date.now() / 60_000)}`;
    expect(Number(await askNode(await ownerOf(counter), "GET", counter))).toBeGreaterThanOrEqual(5);
  });

  it("refuses a key revoked with the CLI in every API process", async () => {
    const { merchant, request } = await buildRequest();
    for (const base of [service.api.base, other.base]) expect((await info(base, merchant.apiKey, request.id)).status).toBe(200);
    await run(process.execPath, [...built("src/cli/admin.ts"), "key", "revoke", keyPrefixOf(merchant.apiKey), "--json"], {
      env: { ...process.env, ...clusterEnv },
    });
    for (const base of [service.api.base, other.base]) {
      const refused = await info(base, merchant.apiKey, request.id);
      expect([refused.status, await refused.json()]).toEqual([401, expect.objectContaining({ message: "KEY_NOT_AUTHORIZED" })]);
    }
  });

  it("counts a key's subscription streams across API processes", async () => {
    const merchant = await buildMerchant();
    const streams = [openStream(service.api.base, merchant.apiKey), openStream(other.base, merchant.apiKey)];
    try {
      for (const stream of streams) expect((await stream.opened).status).toBe(200);
      const third = openStream(service.api.base, merchant.apiKey);
      streams.push(third);
      expect((await third.opened).status).toBe(429);
      const bucket = `payreq:{streams}:key:${keyPrefixOf(merchant.apiKey)}`;
      expect(await askNode(await ownerOf(bucket), "ZCARD", bucket)).toBe(2);
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });

  it("has a worker refuse a queue prefix that is not a hash tag, in one sentence", async () => {
    const worker = spawn(process.execPath, [...built("worker/index.ts")], {
      env: { ...process.env, ...clusterEnv, QUEUE_PREFIX: "payreq" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    worker.stdout.on("data", (chunk: Buffer) => (output += chunk));
    worker.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const code = await new Promise((resolve) => worker.once("exit", resolve));
    expect([code, output.trim()]).toEqual([
      1,
      "Invalid environment:\n  QUEUE_PREFIX: on a Redis Cluster (REDIS_CLUSTER_NODES) it must be a hash tag such as {payreq}",
    ]);
  });
});
