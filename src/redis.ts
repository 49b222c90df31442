import { Redis } from "ioredis";
import { config } from "./config.js";

/**
 * The API's Redis connection (rate-limit counters only). It connects on first use and fails fast
 * while Redis is down, so calls answer 503 at once instead of queueing; the worker has its own.
 */
export const redis = new Redis(config.redis.url, {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 1_000,
  commandTimeout: 1_000,
});
redis.on("error", () => undefined);

let connecting: Promise<void> | null = null;

/** Resolves once connected; concurrent callers share one attempt, and a failed one is retried later. */
export function redisReady(): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  if (redis.status !== "wait" && redis.status !== "end") return Promise.resolve(); // connecting or reconnecting: commands fail fast
  connecting ??= redis.connect().finally(() => (connecting = null));
  return connecting;
}
