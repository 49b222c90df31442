import { z } from "zod";
import { duration, durations, parseEnv, sharedEnv, signingKeyEnv } from "../src/env.js";

const workerEnv = sharedEnv.extend(signingKeyEnv.shape).extend({
  /** How often overdue requests are stored as expired. */
  EXPIRY_SWEEP_INTERVAL: duration.default(10_000),
  /** Prefix of the worker's BullMQ keys in Redis, so several deployments can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w:-]+$/)
    .default("payreq"),
  /** How long shutdown waits for jobs in flight before giving up. */
  SHUTDOWN_TIMEOUT: duration.default(10_000),
  /** Delays between webhook attempts, each counted from the previous attempt (7 delays: 8 attempts). */
  WEBHOOK_RETRY_DELAYS: durations.prefault("2m,10m,15m,1h,2h,6h,11h"),
  /** A webhook that has not answered within this counts as failed. */
  WEBHOOK_TIMEOUT: duration.default(10_000),
  /** The `iss` claim of notifications. */
  WEBHOOK_ISSUER: z.string().min(1).default("payreq"),
  /** Allow webhooks to loopback, private, link-local and multicast addresses (development and tests only). */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** How often the worker looks for events whose queue entry was lost (Redis flushed, worker killed). */
  WEBHOOK_RECONCILE_INTERVAL: duration.default(30_000),
  /** Delivery jobs in flight at once per worker process: one delivery each, or the first attempts of up to ten new events. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(20),
});

const env = parseEnv(workerEnv);

export const workerConfig = {
  db: { url: env.DATABASE_URL, poolSize: 20 },
  log: { level: env.LOG_LEVEL },
  redis: { url: env.REDIS_URL },
  queues: { prefix: env.QUEUE_PREFIX },
  expiry: { sweepIntervalMs: env.EXPIRY_SWEEP_INTERVAL },
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT,
  webhooks: {
    retryDelaysMs: env.WEBHOOK_RETRY_DELAYS,
    timeoutMs: env.WEBHOOK_TIMEOUT,
    issuer: env.WEBHOOK_ISSUER,
    allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    signingKey: env.WEBHOOK_SIGNING_KEY,
    signingKeyDir: env.WEBHOOK_SIGNING_KEY_DIR,
    keyOverlapMs: env.WEBHOOK_KEY_OVERLAP,
    /** How long the worker reuses the current private key before asking the database again (a rotation shows within this). */
    keyCacheMs: 5_000,
    reconcileIntervalMs: env.WEBHOOK_RECONCILE_INTERVAL,
    concurrency: env.WEBHOOK_CONCURRENCY,
  },
};

export type WorkerConfig = typeof workerConfig;
