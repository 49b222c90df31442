/**
 * Credentials and TLS come from REDIS_URL (its user, password and `rediss:` scheme) in every Redis
 * topology. On a single node, a Sentinel group and a Cluster that each ask for a password and speak
 * only TLS, an API and a worker process pay a request, hear it paid on a subscription and deliver its
 * notification; they trust the engines' CA as an operator's would, with NODE_EXTRA_CA_CERTS. npm
 * start refuses a wrong password, and a certificate it does not trust, in one sentence each.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Daemon } from "../../scripts/engines/daemon.js";
import { askerFor } from "../../scripts/engines/ask-redis.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import type { RedisAccess, TlsFiles } from "../../scripts/engines/redis-access.js";
import { masterOf, startRedisCluster, type RedisCluster } from "../../scripts/engines/redis-cluster.js";
import { startSentinelGroup, type SentinelGroup } from "../../scripts/engines/redis-sentinel.js";
import { startRedisServer } from "../../scripts/engines/redis-server.js";
import { makeCertificates } from "../../scripts/engines/tls-certificates.js";
import { buildMerchant } from "../factories.js";
import { refusal } from "../start-group.js";
import { channelOf } from "../../src/pubsub/request-changes.js";
import { until } from "../until.js";
import { payAndAwaitNotification, startReceiver } from "../worker/harness.js";
import { openStream } from "../graphql/subscriptions/sse.js";
import { startService } from "./service.js";

const user = "payreq";
/** With characters a URL must escape, so that REDIS_URL's password is read decoded. */
const password = "s3cret/p@ss:word";
const inUrl = encodeURIComponent(password);

let dir: string;
let tls: TlsFiles;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "payreq-redis-tls-"));
  tls = await makeCertificates(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** How a test reads the engine: the keys matching a pattern, and how many subscribe to a merchant's channel. */
interface Engine {
  keys(pattern: string): Promise<unknown>;
  subscribers(channel: string): Promise<number>;
}

/**
 * Runs an API and a worker process with `env` (and the CA to trust), pays a request of a fresh
 * merchant through the API with a subscription open, and checks its notification and that the
 * worker's queues are on the engine. A stream answers before its process has subscribed to Redis,
 * so the payment waits until the engine counts the merchant's channel's subscriber.
 */
async function payOn(env: Record<string, string>, engine: Engine) {
  const queuePrefix = `{test-${randomUUID().slice(0, 8)}}`;
  const [service, receiver, merchant] = await Promise.all([
    startService({ ...env, NODE_EXTRA_CA_CERTS: tls.ca }, { QUEUE_PREFIX: queuePrefix }),
    startReceiver(),
    buildMerchant(),
  ]);
  const stream = openStream(service.api.base, merchant.apiKey);
  try {
    expect((await stream.opened).status).toBe(200);
    await until(
      () => engine.subscribers(channelOf(merchant.merchantId)),
      (count) => count > 0,
      10_000,
      "the stream's subscription",
    );
    const { requestId, transaction } = await payAndAwaitNotification(service.api.base, merchant, receiver);
    expect(transaction).toMatchObject({ state: "completed", request: { requestId } });
    await stream.heard((events) => events.some((e) => e.id === requestId && e.status === "PAID"), "the payment");
    expect(await engine.keys(`${queuePrefix}:*`)).not.toEqual([]);
  } finally {
    stream.close();
    await Promise.all([service.stop(), receiver.close()]);
  }
}

describe("a single Redis with an ACL user and TLS only (rediss://user:password@host:port/db)", () => {
  const access = (): RedisAccess => ({ user, password, tls });
  let port: number;
  let redis: Daemon;
  beforeAll(async () => {
    [port] = (await freePorts(1)) as [number];
    redis = await startRedisServer(port, { access: access() });
  });
  afterAll(() => redis?.stop());

  it("serves and delivers", async () => {
    const ask = askerFor(access());
    await payOn(
      { REDIS_URL: `rediss://${user}:${inUrl}@127.0.0.1:${port}/0` },
      {
        keys: (pattern) => ask(port, "KEYS", pattern),
        subscribers: async (channel) => Number(((await ask(port, "PUBSUB", "NUMSUB", channel)) as [string, number])[1]),
      },
    );
  });
});

describe("a Sentinel group whose master and replica ask for an ACL user, all over TLS", () => {
  let group: SentinelGroup;
  beforeAll(async () => {
    group = await startSentinelGroup(`payreq-${randomUUID().slice(0, 8)}`, { user, password, tls });
  });
  afterAll(() => group?.stop());

  it("serves and delivers, through the sentinels", async () => {
    await payOn(
      // REDIS_URL names no server: only the credentials, TLS and the database.
      {
        REDIS_SENTINELS: group.sentinelsSetting,
        REDIS_SENTINEL_NAME: group.name,
        REDIS_URL: `rediss://${user}:${inUrl}@127.0.0.1:1/0`,
      },
      {
        keys: async (pattern) => group.ask((await group.master()).port, "KEYS", pattern),
        subscribers: async (channel) =>
          Number(((await group.ask((await group.master()).port, "PUBSUB", "NUMSUB", channel)) as [string, number])[1]),
      },
    );
  });

  it("has npm start refuse a wrong password, and a certificate it does not trust, in one sentence each", async () => {
    const env = (secret: string) => ({
      REDIS_SENTINELS: group.sentinelsSetting,
      REDIS_SENTINEL_NAME: group.name,
      REDIS_URL: `rediss://${user}:${secret}@127.0.0.1:1/0`,
    });
    const at = `Redis master "${group.name}" of the sentinels at ${group.sentinelsSetting}`;
    expect(await refusal({ ...env("wrong"), NODE_EXTRA_CA_CERTS: tls.ca })).toBe(
      `payreq: ${at} refused the credentials in REDIS_URL (WRONGPASS invalid username-password pair or user is disabled.): fix them.`,
    );
    expect(await refusal(env(inUrl))).toBe(
      `payreq: ${at} presented a TLS certificate this machine does not trust (SELF_SIGNED_CERT_IN_CHAIN): set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signed it.`,
    );
  });
});

describe("a Redis Cluster with a password (requirepass) and TLS only, the Cluster bus too", () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster({ password, tls });
  });
  afterAll(() => cluster?.stop());

  it("serves and delivers", async () => {
    const owner = (key: string) => masterOf(cluster.ports[0]!, key, cluster.ask);
    await payOn(
      { REDIS_CLUSTER_NODES: cluster.nodes, REDIS_URL: `rediss://:${inUrl}@127.0.0.1:1` },
      {
        keys: async (pattern) => cluster.ask(await owner(pattern), "KEYS", pattern),
        // Sharded channels: counted by the master that owns the channel's slot.
        subscribers: async (channel) =>
          Number(((await cluster.ask(await owner(channel), "PUBSUB", "SHARDNUMSUB", channel)) as [string, number])[1]),
      },
    );
  });

  it("has npm start refuse a wrong password in one sentence naming REDIS_URL", async () => {
    const env = { REDIS_CLUSTER_NODES: cluster.nodes, REDIS_URL: "rediss://:wrong@127.0.0.1:1", QUEUE_PREFIX: "{payreq}" };
    expect(await refusal({ ...env, NODE_EXTRA_CA_CERTS: tls.ca })).toBe(
      `payreq: The Redis Cluster at ${cluster.nodes} refused the credentials in REDIS_URL (WRONGPASS invalid username-password pair or user is disabled.): fix them.`,
    );
  });
});
