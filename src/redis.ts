import { Redis } from "ioredis";
import { config } from "./config.js";
import { logger } from "./api-logger.js";

/**
 * The API's Redis command connection (rate-limit counters, announcing request changes). It
 * connects on first use; commands made while it connects wait in its queue, so the first calls
 * after a start do not fail. While Redis is down each command fails after `commandTimeout`, so
 * calls answer 503 within seconds instead of hanging.
 */
export const redis = new Redis(config.redis.url, {
  lazyConnect: true,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  commandTimeout: 2_000,
});
redis.on("error", (err) =>
  logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "redis connection error"),
);

/** Whether Redis answers a PING (within the command timeout). */
export async function redisReachable(): Promise<boolean> {
  return redis.ping().then(
    () => true,
    () => false,
  );
}
