import { config } from "../../config.js";
import { redis, redisReady } from "../../redis.js";
import { ExternalServiceError, RateLimitedError } from "../errors.js";

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows counted in Redis, so the limit holds across API instances. A key may
 * make its own limit (api_key.rate_limit_per_minute) or RATE_LIMIT_PER_MINUTE calls a minute.
 */
export async function countRequest(keyPrefix: string, ownLimit: number | null, now: Date): Promise<void> {
  const window = Math.floor(now.getTime() / WINDOW_MS);
  const counter = `payreq:rate:${keyPrefix}:${window}`;
  let count: number;
  try {
    await redisReady();
    const results = await redis
      .multi()
      .incr(counter)
      .pexpire(counter, WINDOW_MS + 1_000)
      .exec();
    count = Number(results?.[0]?.[1]);
  } catch {
    throw new ExternalServiceError("The rate limiter is unavailable; try again shortly.");
  }
  if (count > (ownLimit ?? config.rateLimit.perMinute)) {
    throw new RateLimitedError(Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now.getTime()) / 1000)));
  }
}
