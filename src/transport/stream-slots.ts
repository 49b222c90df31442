import { randomUUID } from "node:crypto";
import { ExternalServiceError, RateLimitedError } from "../domain/errors.js";
import type { Logger } from "../logger.js";
import type { RedisClient } from "../redis-connection.js";
import { clientBucketOf } from "./client-address.js";

/** How many open streams one API key, and one client address, may hold across all API processes. */
export interface StreamLimits {
  perKey: number;
  perAddress: number;
}

/** Who opens a stream: the API key (none when the call has no valid key) and the client address (an IPv6 one counts by its /64). */
export interface StreamOwner {
  keyPrefix: string | null;
  address: string;
}

/** One open stream's place in its owners' counts. */
export interface StreamSlot {
  /** Gives the place back (once; later calls do nothing). Settles when Redis has it, never rejects. */
  release: () => Promise<void>;
}

/**
 * How long a slot outlives its process's last heartbeat. A process renews its slots three times
 * per lease, so a slot of a process that died without releasing it is free within this time.
 */
export const STREAM_LEASE_MS = 15_000;

/**
 * The buckets' names begin with one Redis Cluster hash tag: ACQUIRE takes a key's bucket and an
 * address's bucket together, so all buckets live in one hash slot (opening a stream is rare
 * enough for one node to count them all).
 */
const BUCKETS = "payreq:{streams}";

/**
 * Takes a place in every bucket or in none, one round trip. Each bucket is a sorted set of
 * stream ids scored by the end of their lease (Redis's clock: one clock for every process);
 * expired leases are dropped first. Returns 0, or the 1-based index of the bucket that is full.
 */
const ACQUIRE = `local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for i, bucket in ipairs(KEYS) do
  redis.call("ZREMRANGEBYSCORE", bucket, "-inf", now)
  if redis.call("ZCARD", bucket) >= tonumber(ARGV[i + 2]) then return i end
end
for _, bucket in ipairs(KEYS) do
  redis.call("ZADD", bucket, now + tonumber(ARGV[2]), ARGV[1])
  redis.call("PEXPIRE", bucket, ARGV[2])
end
return 0`;

/**
 * Extends the leases of a bucket's streams, adding back any that lapsed while Redis could not be
 * reached (the stream is still open, so it still counts). Only streams still open are renewed, and
 * a release's ZREM follows on the same connection, so a released stream is not added back.
 */
const RENEW = `local time = redis.call("TIME")
local until_ = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call("ZADD", KEYS[1], until_, ARGV[i]) end
redis.call("PEXPIRE", KEYS[1], ARGV[1])
return 0`;

/**
 * Bounds the server-sent-event streams open at once per API key and per client address, counted
 * in Redis so that the bound holds across every API process. A stream's place is leased: the
 * process that holds it renews it while the stream is open and gives it back when the stream ends
 * (`release`), and a place whose process died lapses after STREAM_LEASE_MS.
 */
export function createStreamSlots(redis: RedisClient, limits: StreamLimits, logger: Logger, leaseMs = STREAM_LEASE_MS) {
  /** This process's open streams: id -> the buckets it counts in. */
  const open = new Map<string, string[]>();
  let heartbeat: NodeJS.Timeout | null = null;

  function renew(): void {
    const members = new Map<string, string[]>();
    for (const [id, buckets] of open) {
      for (const bucket of buckets) {
        const ids = members.get(bucket);
        if (ids) ids.push(id);
        else members.set(bucket, [id]);
      }
    }
    const pipeline = redis.pipeline();
    for (const [bucket, ids] of members) pipeline.eval(RENEW, 1, bucket, leaseMs, ...ids);
    pipeline.exec().catch((err: unknown) => logger.warn({ err }, "could not renew the leases of open subscription streams"));
  }

  async function release(id: string): Promise<void> {
    const buckets = open.get(id);
    if (!buckets) return;
    open.delete(id);
    if (open.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
    const pipeline = redis.pipeline();
    for (const bucket of buckets) pipeline.zrem(bucket, id);
    // A place Redis cannot take back now lapses with its lease.
    await pipeline.exec().catch((err: unknown) => logger.warn({ err }, "could not release a subscription stream's place"));
  }

  return {
    /**
     * Takes a place for a new stream of `owner`. Throws RATE_LIMIT_EXCEEDED when its key or its
     * address already holds its limit, and EXTERNAL_SERVICE_ERROR while Redis is unreachable.
     */
    async acquire(owner: StreamOwner): Promise<StreamSlot> {
      const counted = [
        ...(owner.keyPrefix ? [{ bucket: `${BUCKETS}:key:${owner.keyPrefix}`, limit: limits.perKey, who: "API key" }] : []),
        { bucket: `${BUCKETS}:addr:${clientBucketOf(owner.address)}`, limit: limits.perAddress, who: "client address" },
      ];
      const id = randomUUID();
      let full: number;
      try {
        const buckets = counted.map((c) => c.bucket);
        full = Number(await redis.eval(ACQUIRE, buckets.length, ...buckets, id, leaseMs, ...counted.map((c) => c.limit)));
      } catch (err) {
        throw new ExternalServiceError("The subscription limiter is unavailable; try again shortly.", { cause: err });
      }
      const refused = counted[full - 1];
      if (refused) {
        throw new RateLimitedError(
          Math.ceil(leaseMs / 1000),
          `This ${refused.who} already has ${refused.limit} open subscriptions, the most it may hold; close one, then subscribe again.`,
        );
      }
      open.set(
        id,
        counted.map((c) => c.bucket),
      );
      heartbeat ??= setInterval(renew, leaseMs / 3).unref();
      return { release: () => release(id) };
    },
  };
}

export type StreamSlots = ReturnType<typeof createStreamSlots>;
