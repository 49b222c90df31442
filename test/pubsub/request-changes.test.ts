import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { announceRequestChange, type RequestChange } from "../../src/domain/requests/changes.js";
import { logger } from "../../src/api-logger.js";
import { publishRequestChanges, subscribeRequestChanges } from "../../src/pubsub/request-changes.js";
import { testEnv } from "../../vitest.config.js";

const redis = new Redis(testEnv.REDIS_URL);
const feed = subscribeRequestChanges(testEnv.REDIS_URL, logger);
afterAll(async () => {
  feed.close();
  await redis.quit();
});

/** Reads one subscriber's changes of one merchant until `count` arrived. */
async function collect(changes: AsyncIterable<RequestChange>, merchantId: string, count: number) {
  const seen: RequestChange[] = [];
  for await (const change of changes) {
    if (change.merchantId === merchantId) seen.push(change);
    if (seen.length === count) break;
  }
  return seen;
}

/** Waits until this process's feed is subscribed in Redis (its SUBSCRIBE went out). */
async function subscribed() {
  await expect
    .poll(async () => Number((await redis.pubsub("NUMSUB", "payreq:request-changes"))[1]), { timeout: 5_000 })
    .toBeGreaterThan(0);
  await expect
    .poll(async () => (await redis.call("CLIENT", "LIST", "TYPE", "pubsub")) as string, { timeout: 5_000 })
    .toContain(`name=payreq-request-changes-${process.pid}`);
}

describe("request changes between processes", () => {
  it("reach every subscriber through one Redis connection per process, and malformed messages are dropped", async () => {
    const merchantId = randomUUID();
    const readers = [1, 2, 3].map(() => collect(feed.changes(), merchantId, 2));
    await subscribed();
    const clients = ((await redis.call("CLIENT", "LIST", "TYPE", "pubsub")) as string)
      .split("\n")
      .filter((line) => line.includes(`name=payreq-request-changes-${process.pid} `));
    expect(clients).toHaveLength(1);

    const stop = publishRequestChanges(redis, logger);
    try {
      await redis.publish("payreq:request-changes", "not json");
      await redis.publish("payreq:request-changes", JSON.stringify({ merchantId, requestId: "r0", change: "STOLEN" }));
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
});
