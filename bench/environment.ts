/**
 * The run's environment for the service, the baseline and the CLI, and the clean-up of what it
 * makes: a signing key of its own, BullMQ keys under a prefix of its own, and (by default) a
 * database of its own. Environment, or the settings file as every entry point reads it
 * (src/env-file.ts): BENCH_DATABASE_URL, the Redis settings (REDIS_URL, or with REDIS_SENTINELS or
 * REDIS_CLUSTER_NODES), BENCH_API_PORT, BENCH_BASELINE_PORT.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportPKCS8, generateKeyPair } from "jose";
import { Cluster } from "ioredis";
import { dropDatabase } from "../scripts/start/database-admin.js";
import { loadEnvFile } from "../src/env-file.js";
import { parseEnv, sharedEnv } from "../src/env.js";
import { connectRedis, redisTopology, type RedisTopology } from "../src/redis-connection.js";
import { onCleanUp } from "./lifecycle.js";

export interface Environment {
  env: NodeJS.ProcessEnv;
  databaseUrl: string;
  /** True when the database is the run's own, dropped at the end. */
  ownDatabase: boolean;
  redis: RedisTopology;
  queuePrefix: string;
  apiPort?: number;
  baselinePort: string;
}

/** Writes a new P-256 private key (PKCS#8 PEM) into `dir` and returns its path. */
async function writeSigningKey(dir: string): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const file = join(dir, "bench-signing-key.pem");
  await writeFile(file, await exportPKCS8(privateKey), { mode: 0o600 });
  return file;
}

/** Deletes the run's BullMQ keys (the worker may have been killed, so it cannot tidy them itself). */
async function deleteQueueKeys(topology: RedisTopology, prefix: string): Promise<void> {
  const redis = connectRedis(topology, {
    lazyConnect: true,
    connectTimeout: 2_000,
    commandTimeout: 5_000,
    maxRetriesPerRequest: 1,
  });
  try {
    await redis.connect();
    // On a Cluster the prefix is a hash tag: all its keys are on one master, and each is unlinked where it is.
    for (const node of redis instanceof Cluster ? redis.nodes("master") : [redis])
      for await (const keys of node.scanStream({ match: `${prefix}:*`, count: 1000 }) as AsyncIterable<string[]>)
        for (const key of keys) await redis.unlink(key);
  } finally {
    redis.disconnect();
  }
}

/** Reads the settings, makes the run's signing key, and registers the clean-up of all the run makes. */
export async function prepareEnvironment(): Promise<Environment> {
  loadEnvFile();
  const ownDatabase = !process.env.BENCH_DATABASE_URL;
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/payreq_bench_${randomBytes(4).toString("hex")}`;
  const redis = redisTopology(parseEnv(sharedEnv));
  // A Cluster keeps a queue's keys in one slot only under a hash tag.
  const queuePrefix = redis.kind === "cluster" ? `{bench-${Date.now()}}` : `bench-${Date.now()}`;
  const keyDir = await mkdtemp(join(tmpdir(), "payreq-bench-keys-"));
  // Registered in this order, they run after every process has stopped.
  onCleanUp("remove the signing keys", () => rm(keyDir, { recursive: true, force: true }));
  onCleanUp(`delete the Redis keys ${queuePrefix}:*`, () => deleteQueueKeys(redis, queuePrefix));
  if (ownDatabase) onCleanUp(`drop ${databaseUrl}`, () => dropDatabase(databaseUrl));
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    // The worker runs as in production, where it generates no key: it signs with a key made for this run, removed with it.
    WEBHOOK_SIGNING_KEY_DIR: keyDir,
    WEBHOOK_SIGNING_KEY: await writeSigningKey(keyDir),
    EXPIRY_SWEEP_INTERVAL: "1h",
    // The bench measures throughput, not the per-key limit: a 429 would stop it as a wrong answer.
    RATE_LIMIT_PER_MINUTE: "1000000000",
    METRICS_PORT: "0",
    // The bench reads one API process's CPU per call; the topology section compares one with two.
    API_PROCESSES: "1",
    // At the end the service stops as on Ctrl-C, without waiting long for anything.
    SHUTDOWN_TIMEOUT: "5s",
  };
  return {
    env,
    databaseUrl,
    ownDatabase,
    redis,
    queuePrefix,
    ...(process.env.BENCH_API_PORT ? { apiPort: Number(process.env.BENCH_API_PORT) } : {}),
    baselinePort: process.env.BENCH_BASELINE_PORT ?? "0",
  };
}
