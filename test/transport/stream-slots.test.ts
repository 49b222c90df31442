import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../../src/domain/errors.js";
import { createLogger } from "../../src/logger.js";
import { createStreamSlots } from "../../src/transport/stream-slots.js";
import { until } from "../until.js";

const redis = new Redis(process.env["REDIS_URL"]!);
afterAll(() => redis.quit());
const logger = createLogger({ level: "silent", pretty: false });

describe("stream slots", () => {
  it("count a stream that stays open again once its lapsed lease is dropped (Redis was out of reach longer than a lease)", async () => {
    const leaseMs = 300;
    const slots = createStreamSlots(redis, { perKey: 2, perAddress: 100 }, logger, leaseMs);
    // An owner of this test's own: its buckets are no other test's.
    const owner = { keyPrefix: `test_${randomUUID()}`, address: randomUUID() };
    const held = [await slots.acquire(owner), await slots.acquire(owner)];
    // A stream of another owner that stays open, so renewals go on and can be seen.
    const other = { keyPrefix: `test_${randomUUID()}`, address: randomUUID() };
    const marker = await slots.acquire(other);
    const otherBucket = `payreq:{streams}:key:${other.keyPrefix}`;
    const renewedAt = async () => Number(await redis.zscore(otherBucket, (await redis.zrange(otherBucket, "0", "0"))[0]!));
    await expect(slots.acquire(owner)).rejects.toBeInstanceOf(RateLimitedError);

    // Another process dropped the leases as lapsed, as it does when this one could not renew them.
    const bucket = `payreq:{streams}:key:${owner.keyPrefix}`;
    await redis.del(bucket);
    // The next renewal counts both streams again (they are still open): the key is full again.
    await until(
      () => redis.zcard(bucket),
      (count) => count === 2,
      5_000,
      "the open streams to be counted again",
    );
    await expect(slots.acquire(owner)).rejects.toBeInstanceOf(RateLimitedError);

    // Released streams are not added back by later renewals: once a renewal has come after the
    // release (the other owner's lease moved on), the bucket is still empty.
    await Promise.all(held.map((slot) => slot.release()));
    const released = await renewedAt();
    await until(renewedAt, (at) => at > released, 5_000, "a renewal after the release");
    expect(await redis.zcard(bucket)).toBe(0);
    await marker.release();
  });
});
