import type { Logger } from "../logger.js";
import { connectRedis, describeRedis, type RedisClient, type RedisTopology } from "../redis-connection.js";
import { until } from "../poll.js";

/**
 * The API's Redis command connection (rate-limit counters, announcing request changes). It
 * connects on first use; commands made while it connects wait in its queue, so the first calls
 * after a start do not fail. While Redis is down each command fails after `commandTimeout`, so
 * calls answer 503 within seconds instead of hanging.
 */
export function openRedis(topology: RedisTopology, logger: Logger): RedisClient {
  const redis = connectRedis(topology, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
  });
  redis.on("error", (err: Error) =>
    logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "redis connection error"),
  );
  return redis;
}

/**
 * Waits until Redis answers, for at most `timeoutMs`, saying once that it waits: the API starts
 * listening only then, so its first calls are not refused with 503. False if it never answered.
 */
export async function waitForRedis(
  redis: RedisClient,
  topology: RedisTopology,
  timeoutMs: number,
  logger: Logger,
): Promise<boolean> {
  if (await redisReachable(redis)) return true;
  logger.warn({ redis: describeRedis(topology), timeoutMs }, "waiting for Redis before listening");
  return until(() => redisReachable(redis), Boolean, timeoutMs, "Redis", 250).catch(() => false);
}

/** Whether Redis answers a PING (within the command timeout). */
export async function redisReachable(redis: RedisClient): Promise<boolean> {
  return redis.ping().then(
    () => true,
    () => false,
  );
}
