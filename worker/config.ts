import { z } from "zod";
import { duration, parseEnv, sharedEnv } from "../src/config.js";

const workerEnv = sharedEnv.extend({
  /** How often overdue requests are stored as expired. */
  EXPIRY_SWEEP_INTERVAL: duration.default(10_000),
  /** Prefix of the worker's BullMQ keys in Redis, so several deployments can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w:-]+$/)
    .default("payreq"),
  /** How long shutdown waits for jobs in flight before giving up. */
  SHUTDOWN_TIMEOUT: duration.default(10_000),
});

const env = parseEnv(workerEnv);

export const workerConfig = {
  redis: { url: env.REDIS_URL },
  queues: { prefix: env.QUEUE_PREFIX },
  expiry: { sweepIntervalMs: env.EXPIRY_SWEEP_INTERVAL },
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT,
};

export type WorkerConfig = typeof workerConfig;
