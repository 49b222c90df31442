import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { addressMeter, createRateLimiter, keyMeter } from "../../src/transport/rate-limit.js";
import { createStreamSlots } from "../../src/transport/stream-slots.js";
import { monitorRedis } from "../redis-monitor.js";
import { until } from "../until.js";

const redis = new Redis(process.env["REDIS_URL"]!);
afterAll(() => redis.quit());

/** The part of a key Redis Cluster hashes: the text of its first non-empty `{…}`, else the whole key. */
function hashedPartOf(key: string): string {
  const open = key.indexOf("{");
  const close = open === -1 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe("the API's Redis scripts on a Redis Cluster", () => {
  it("name keys of one hash slot in every script that takes several", async () => {
    // What Redis is sent, as MONITOR shows it: each script call's keys.
    const scripts: string[][] = [];
    const watching = await monitorRedis(process.env["REDIS_URL"]!, (args) => {
      if (/^eval(sha)?$/i.test(args[0] ?? "")) scripts.push(args.slice(3, 3 + Number(args[2])));
    });

    // This test's own key and address, so that only its own calls are looked at.
    const keyPrefix = `pk_${randomUUID().slice(0, 12)}`;
    const address = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    const limiter = createRateLimiter(redis, 1_000);
    await limiter.charge(keyMeter({ keyPrefix, rateLimitPerMinute: null } as Parameters<typeof keyMeter>[0]), 1);
    await limiter.charge(addressMeter(address), 1);
    const slots = createStreamSlots(redis, { perKey: 5, perAddress: 5 }, createLogger({ level: "silent" }));
    const slot = await slots.acquire({ keyPrefix, address });
    await slot.release();

    // The rate limit for a key (its counter and its revocation mark), and a stream's place (its key's
    // and its address's buckets); a script Redis did not have yet shows twice (EVALSHA, then EVAL).
    const isKeyCharge = (keys: string[]) => keys.some((key) => key.startsWith("payreq:revoked:"));
    const isStreamPlace = (keys: string[]) => keys.length === 2 && keys.some((key) => key.includes(":addr:"));
    const ours = await until(
      () => scripts.filter((keys) => keys.some((key) => key.includes(keyPrefix) || key.includes(address))),
      (found) => found.some(isKeyCharge) && found.some(isStreamPlace),
      5_000,
      "the limiter's and the stream slots' scripts to show in MONITOR",
    );
    watching.stop();
    for (const keys of ours) expect(new Set(keys.map(hashedPartOf)), keys.join(" ")).toHaveProperty("size", 1);
  });
});
