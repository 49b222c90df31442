import { ExternalServiceError, RateLimitedError, stackless, UnauthenticatedError } from "../domain/errors.js";
import type { AuthenticatedKey } from "../domain/keys/authenticate.js";
import { setTimeout as delay } from "node:timers/promises";
import type { Result } from "ioredis";
import type { RedisClient } from "../redis-connection.js";
import { revocationMark } from "../key-revocations.js";
import { clientBucketOf } from "./client-address.js";
import { forgetKey } from "./key-cache.js";

const WINDOW_MS = 60_000;

/** What calls are counted against: an API key, or the client address of calls without a valid key. */
export interface Meter {
  bucket: string;
  /** Calls a minute; null for RATE_LIMIT_PER_MINUTE. */
  perMinute: number | null;
  /** A key's: refused as revoked once it has been (see key-revocations.ts). */
  keyPrefix?: string;
}

export const keyMeter = (key: AuthenticatedKey): Meter => ({
  bucket: `key:${key.keyPrefix}`,
  perMinute: key.rateLimitPerMinute,
  keyPrefix: key.keyPrefix,
});

/** Calls with a missing or unknown key are throttled per client address (an IPv6 one by its /64), at the default limit. */
export const addressMeter = (address: string): Meter => ({ bucket: `addr:${clientBucketOf(address)}`, perMinute: null });

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** INCRBY `counter` by `calls`, with a time to live of `ttlMs` when new; the new count. */
    chargeWindow(counter: string, calls: number, ttlMs: number): Result<number, Context>;
    /** chargeWindow, or -1 when `revoked` (a key's revocation mark) exists. */
    chargeKeyWindow(counter: string, revoked: string, calls: number, ttlMs: number): Result<number, Context>;
  }
}

/** Charges calls to meters; one per API process (see createRateLimiter). */
export interface RateLimiter {
  /**
   * Charges `calls` calls to a meter for the current minute. Fixed one-minute windows counted in
   * Redis, so the limit holds across API instances. Throws RATE_LIMIT_EXCEEDED past the limit,
   * KEY_NOT_AUTHORIZED for a key revoked since this process read it, and EXTERNAL_SERVICE_ERROR
   * while Redis is unreachable. REST charges one call per request, GraphQL an operation's points
   * (graphql/operation-cost.ts), at least one per root field.
   */
  charge(meter: Meter, calls: number, now?: Date): Promise<void>;
  /** Calls (GraphQL: points) a meter may be charged a minute. */
  limitOf(meter: Meter): number;
  /** Whether a meter is past its limit for the rest of the current window, as this process last saw it. */
  isSpent(meter: Meter, now?: number): boolean;
}

/**
 * How long a call is held before it is refused in a window its meter has already spent here. A
 * caller that ignores Retry-After and calls again the moment it is answered (a flood) is then
 * answered at this pace on each of its connections, so its refusals take little of the API's CPU
 * from other tenants. The window's first refusal is answered at once.
 */
export const REPEATED_REFUSAL_DELAY_MS = 250;

/** Bounds the memory a flood from many addresses can take; past it, Redis answers as before. */
const MAX_SPENT = 100_000;

const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/** The rate limiter of one API process, counting in `redis`; `defaultPerMinute` is RATE_LIMIT_PER_MINUTE. */
export function createRateLimiter(redis: RedisClient, defaultPerMinute: number): RateLimiter {
  /**
   * Adds calls to a window's counter and gives the counter its expiry when it is new: one round
   * trip, atomic (a MULTI costs the client about twice as much). Sent by its SHA1 (EVALSHA; ioredis
   * sends the script itself only when Redis does not have it yet), not as its text on every call.
   */
  redis.defineCommand("chargeWindow", {
    numberOfKeys: 1,
    lua: `local count = redis.call("INCRBY", KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return count`,
  });
  /** The same for a key's window, unless the key's revocation mark is set: then -1, and nothing is counted. */
  redis.defineCommand("chargeKeyWindow", {
    numberOfKeys: 2,
    lua: `if redis.call("EXISTS", KEYS[2]) == 1 then return -1 end
local count = redis.call("INCRBY", KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return count`,
  });

  /**
   * The meters this process found past their limit, with the end of that window. A window's counter
   * only grows, so until then their calls are refused here, without a Redis round trip: a caller
   * flooding past its limit costs the service as little as possible.
   */
  const spent = new Map<string, number>();
  const forgetEnded = (now: number) => {
    for (const [bucket, end] of spent) if (end <= now) spent.delete(bucket);
  };

  return {
    limitOf: (meter) => meter.perMinute ?? defaultPerMinute,
    isSpent: (meter, now = Date.now()) => (spent.get(meter.bucket) ?? 0) > now,
    async charge(meter, calls, now = new Date()) {
      const spentUntil = spent.get(meter.bucket);
      if (spentUntil !== undefined && spentUntil > now.getTime()) {
        await delay(REPEATED_REFUSAL_DELAY_MS);
        throw stackless(() => new RateLimitedError(secondsUntil(spentUntil, Date.now())));
      }
      const window = Math.floor(now.getTime() / WINDOW_MS);
      // In braces, a Redis Cluster hash tag: a key's counter shares its revocation mark's slot (key-revocations.ts).
      const counter = `payreq:rate:{${meter.bucket}}:${window}`;
      let count: number;
      try {
        count = Number(
          meter.keyPrefix === undefined
            ? await redis.chargeWindow(counter, calls, WINDOW_MS + 1_000)
            : await redis.chargeKeyWindow(counter, revocationMark(meter.keyPrefix), calls, WINDOW_MS + 1_000),
        );
      } catch (err) {
        throw new ExternalServiceError("The rate limiter is unavailable; try again shortly.", { cause: err });
      }
      if (count === -1 && meter.keyPrefix !== undefined) {
        forgetKey(meter.keyPrefix);
        throw new UnauthenticatedError();
      }
      if (!Number.isFinite(count)) throw new ExternalServiceError("The rate limiter is unavailable; try again shortly.");
      if (count > (meter.perMinute ?? defaultPerMinute)) {
        const end = (window + 1) * WINDOW_MS;
        if (spent.size >= MAX_SPENT) forgetEnded(now.getTime());
        if (spent.size < MAX_SPENT) spent.set(meter.bucket, end);
        throw stackless(() => new RateLimitedError(secondsUntil(end, now.getTime())));
      }
    },
  };
}
