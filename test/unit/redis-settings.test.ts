import { describe, expect, it } from "vitest";
import { apiEnv, cliEnv, workerEnv } from "../../src/env.js";
import type { Cluster, Redis } from "ioredis";
import { connectRedis, describeRedis, redisTopology } from "../../src/redis-connection.js";

const problems = (schema: typeof apiEnv | typeof workerEnv | typeof cliEnv, env: Record<string, string>) => {
  const parsed = schema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("the Redis topology settings", () => {
  it("name a single node, a Sentinel group or a Cluster, alike for the API, the worker and the CLI", () => {
    for (const schema of [apiEnv, workerEnv, cliEnv]) {
      expect(redisTopology(schema.parse({}))).toEqual({ kind: "single", url: "redis://127.0.0.1:6379" });
      const sentinel = schema.parse({
        REDIS_URL: "rediss://payreq:secret@127.0.0.1:6379/2",
        REDIS_SENTINELS: "127.0.0.1:26379, [::1]:26380",
        REDIS_SENTINEL_NAME: "payreq",
      });
      expect(redisTopology(sentinel)).toEqual({
        kind: "sentinel",
        url: "rediss://payreq:secret@127.0.0.1:6379/2",
        sentinels: [
          { host: "127.0.0.1", port: 26379 },
          { host: "::1", port: 26380 },
        ],
        name: "payreq",
      });
      const cluster = schema.parse({ REDIS_CLUSTER_NODES: "127.0.0.1:7000,127.0.0.1:7001", QUEUE_PREFIX: "{payreq}" });
      expect(redisTopology(cluster)).toMatchObject({ kind: "cluster", nodes: [{ port: 7000 }, { port: 7001 }] });
      expect(describeRedis(redisTopology(cluster))).toBe("the Redis Cluster at 127.0.0.1:7000,127.0.0.1:7001");
      expect(describeRedis(redisTopology(sentinel))).not.toContain("secret");
    }
  });

  it("refuse a contradictory or half-given topology, naming the variable", () => {
    for (const schema of [apiEnv, workerEnv, cliEnv]) {
      expect(problems(schema, { REDIS_SENTINELS: "127.0.0.1:26379" })).toEqual([
        expect.stringMatching(/^REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/),
      ]);
      expect(problems(schema, { REDIS_SENTINEL_NAME: "payreq" })).toEqual([expect.stringMatching(/^REDIS_SENTINELS: required/)]);
      expect(
        problems(schema, {
          REDIS_SENTINELS: "127.0.0.1:26379",
          REDIS_SENTINEL_NAME: "payreq",
          REDIS_CLUSTER_NODES: "127.0.0.1:7000",
          QUEUE_PREFIX: "{payreq}",
        }),
      ).toEqual([expect.stringMatching(/^REDIS_CLUSTER_NODES: set REDIS_SENTINELS or REDIS_CLUSTER_NODES, not both/)]);
      for (const nodes of ["127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "::1:7000", "127.0.0.1:7000,", " "])
        expect(problems(schema, { REDIS_CLUSTER_NODES: nodes, QUEUE_PREFIX: "{payreq}" }), nodes).toEqual([
          expect.stringMatching(/^REDIS_CLUSTER_NODES: /),
        ]);
    }
  });

  it("refuse a Cluster whose queue prefix is not a hash tag, with the prefix to give instead", () => {
    expect(problems(workerEnv, { REDIS_CLUSTER_NODES: "127.0.0.1:7000" })).toEqual([
      "QUEUE_PREFIX: on a Redis Cluster (REDIS_CLUSTER_NODES) it must be a hash tag such as {payreq}",
    ]);
    expect(problems(workerEnv, { REDIS_CLUSTER_NODES: "127.0.0.1:7000", QUEUE_PREFIX: "shop-eu" })).toEqual([
      "QUEUE_PREFIX: on a Redis Cluster (REDIS_CLUSTER_NODES) it must be a hash tag such as {shop-eu}",
    ]);
    expect(problems(workerEnv, { QUEUE_PREFIX: "shop-eu" })).toEqual([]);
  });
});

describe("the connection of each topology", () => {
  /** The options a client was made with, without connecting it. */
  const optionsOf = (env: Record<string, string>) => {
    const client = connectRedis(redisTopology(cliEnv.parse(env)), { lazyConnect: true });
    return client.options as Redis["options"] & Cluster["options"];
  };
  const url = "rediss://payreq:s3cret%2Fp%40ss@127.0.0.1:6380/2";

  it("takes the user, password, TLS and database from REDIS_URL, decoded, on a single node", () => {
    expect(optionsOf({ REDIS_URL: url })).toMatchObject({
      host: "127.0.0.1",
      port: 6380,
      username: "payreq",
      password: "s3cret/p@ss",
      tls: expect.anything(),
      db: 2,
    });
    expect(optionsOf({ REDIS_URL: "redis://127.0.0.1:6380" }).tls).toBeUndefined();
  });

  it("gives a Sentinel group's master them, and speaks TLS with the sentinels and the master when REDIS_URL is rediss:", () => {
    const options = optionsOf({ REDIS_URL: url, REDIS_SENTINELS: "127.0.0.1:26379", REDIS_SENTINEL_NAME: "payreq" });
    expect(options).toMatchObject({
      username: "payreq",
      password: "s3cret/p@ss",
      db: 2,
      enableTLSForSentinelMode: true,
      sentinelTLS: {},
      tls: {},
    });
    // The sentinels themselves are asked no password: REDIS_URL's is the data nodes'.
    expect(options.sentinelPassword).toBeFalsy();
    const plain = optionsOf({
      REDIS_URL: "redis://:pw@x:1/0",
      REDIS_SENTINELS: "127.0.0.1:26379",
      REDIS_SENTINEL_NAME: "payreq",
    });
    expect(plain).toMatchObject({ password: "pw" });
    expect([plain.tls, plain.enableTLSForSentinelMode, plain.sentinelTLS]).toEqual([undefined, false, undefined]);
  });

  it("gives every Cluster node them, but no database (a Cluster has only database 0)", () => {
    const options = optionsOf({ REDIS_URL: url, REDIS_CLUSTER_NODES: "127.0.0.1:7000", QUEUE_PREFIX: "{payreq}" });
    expect(options.redisOptions).toMatchObject({ username: "payreq", password: "s3cret/p@ss", tls: {} });
    expect(options.redisOptions!.db).toBeUndefined();
  });
});
