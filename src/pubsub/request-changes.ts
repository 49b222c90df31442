import { Redis } from "ioredis";
import { config } from "../config.js";
import { onRequestChange, type RequestChange } from "../domain/requests/changes.js";
import { logger } from "../logger.js";

const CHANNEL = "payreq:request-changes";

/**
 * Carries request changes between processes over Redis pub/sub, so a subscriber connected to any
 * API process hears changes made through any other (or by the worker's expiry sweep).
 * @graphql-yoga/redis-event-target would do this but requires ioredis 5; this is its small core.
 */
export function relayRequestChanges(redisUrl = config.redis.url) {
  const publisher = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  publisher.on("error", () => undefined);
  const stop = onRequestChange((change) => {
    publisher
      .publish(CHANNEL, JSON.stringify(change))
      .catch((err) => logger.warn({ err }, "could not announce a request change"));
  });
  return {
    close() {
      stop();
      publisher.disconnect();
    },
  };
}

/** Every change announced by any process, as an async iterator, until `signal` aborts. */
export async function* requestChanges(signal: AbortSignal, redisUrl = config.redis.url): AsyncGenerator<RequestChange> {
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  subscriber.on("error", () => undefined);
  const queue: RequestChange[] = [];
  let wake: (() => void) | undefined;
  subscriber.on("message", (_channel, message: string) => {
    queue.push(JSON.parse(message) as RequestChange);
    wake?.();
  });
  const stopped = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  try {
    await subscriber.subscribe(CHANNEL);
    while (!signal.aborted) {
      while (queue.length) yield queue.shift()!;
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), stopped]);
    }
  } finally {
    subscriber.disconnect();
  }
}
