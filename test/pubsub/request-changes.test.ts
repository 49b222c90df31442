import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { announceRequestChange, type RequestChange } from "../../src/domain/requests/changes.js";
import { logger } from "../api-parts.js";
import { channelOf, publishRequestChanges, subscribeRequestChanges } from "../../src/pubsub/request-changes.js";
import { testEnv } from "../../vitest.config.js";

const redis = new Redis(testEnv.REDIS_URL);
const feed = subscribeRequestChanges({ kind: "single", url: testEnv.REDIS_URL }, logger);
afterAll(async () => {
  feed.close();
  await redis.quit();
});

/** Reads one subscriber's changes of one merchant until `count` arrived. */
async function collect(merchantId: string, count: number) {
  const seen: RequestChange[] = [];
  for await (const change of feed.changes(merchantId)) {
    seen.push(change);
    if (seen.length === count) break;
  }
  return seen;
}

/** Subscribers of a merchant's channel in Redis. */
const subscribers = async (merchantId: string) => Number((await redis.pubsub("NUMSUB", channelOf(merchantId)))[1]);

/** Waits until this process's feed is subscribed to a merchant's channel in Redis (its SUBSCRIBE went out). */
async function subscribed(merchantId: string) {
  await expect.poll(() => subscribers(merchantId), { timeout: 5_000 }).toBeGreaterThan(0);
  await expect
    .poll(async () => (await redis.call("CLIENT", "LIST", "TYPE", "pubsub")) as string, { timeout: 5_000 })
    .toContain(`name=payreq-request-changes-${process.pid}`);
}

describe("request changes between processes", () => {
  it("reach every subscriber of the merchant through one Redis connection per process, and malformed messages are dropped", async () => {
    const merchantId = randomUUID();
    const readers = [1, 2, 3].map(() => collect(merchantId, 2));
    await subscribed(merchantId);
    const clients = ((await redis.call("CLIENT", "LIST", "TYPE", "pubsub")) as string)
      .split("\n")
      .filter((line) => line.includes(`name=payreq-request-changes-${process.pid} `));
    expect(clients).toHaveLength(1);

    const stop = publishRequestChanges(redis, logger);
    try {
      await redis.publish(channelOf(merchantId), "not json");
      await redis.publish(channelOf(merchantId), JSON.stringify({ merchantId, requestId: "r0", change: "STOLEN" }));
      // A change of another merchant, even on this merchant's channel, is not this merchant's.
      await redis.publish(channelOf(merchantId), JSON.stringify({ merchantId: randomUUID(), requestId: "r9", change: "PAID" }));
      announceRequestChange({ merchantId, requestId: "r1", change: "PAID" });
      announceRequestChange({ merchantId, requestId: "r1", change: "REFUNDED" });
      const heard = await Promise.all(readers);
      for (const changes of heard) {
        expect(changes).toEqual([
          { merchantId, requestId: "r1", change: "PAID" },
          { merchantId, requestId: "r1", change: "REFUNDED" },
        ]);
      }
    } finally {
      stop();
    }
  });

  it("travel on the merchant's own channel, which a process listens to only while it has readers of that merchant", async () => {
    const [merchantId, otherId] = [randomUUID(), randomUUID()];
    const stop = publishRequestChanges(redis, logger);
    try {
      const reader = feed.changes(merchantId)[Symbol.asyncIterator]();
      const first = reader.next();
      await subscribed(merchantId);
      expect(await subscribers(otherId)).toBe(0);
      announceRequestChange({ merchantId: otherId, requestId: "theirs", change: "PAID" });
      announceRequestChange({ merchantId, requestId: "mine", change: "CANCELLED" });
      expect((await first).value).toEqual({ merchantId, requestId: "mine", change: "CANCELLED" });

      // Ending a reader that waits for a change ends it at once, and the process leaves the channel.
      const waiting = reader.next();
      await reader.return?.();
      expect(await waiting).toEqual({ done: true, value: undefined });
      await expect.poll(() => subscribers(merchantId), { timeout: 5_000 }).toBe(0);
    } finally {
      stop();
    }
  });
});
