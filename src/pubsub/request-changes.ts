import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub, filter, pipe, type PubSubEvent } from "graphql-yoga";
import { Redis } from "ioredis";
import { onRequestChange, requestChange, type RequestChange } from "../domain/requests/changes.js";
import type { Logger } from "../logger.js";

/**
 * Each merchant's changes travel on a Redis channel of their own, `payreq:request-changes:<merchantId>`:
 * a process receives only the changes of merchants it has subscribers for, and a change reaches
 * only its merchant's streams, so one merchant's activity costs other merchants nothing.
 */
const CHANNEL = "payreq:request-changes";
type Channels = { [CHANNEL]: [merchantId: string, change: RequestChange | null] };

/** The Redis channel of one merchant's changes. */
export const channelOf = (merchantId: string) => `${CHANNEL}:${merchantId}`;

/**
 * Forwards the request changes this process announces to every API process over Redis pub/sub.
 * Best effort: a change that cannot be published is logged; the database stays the record.
 * Returns a function that stops forwarding.
 */
export function publishRequestChanges(publisher: Redis, logger: Logger): () => void {
  return onRequestChange((change) => {
    publisher.publish(channelOf(change.merchantId), JSON.stringify(change)).catch((err: unknown) => {
      logger.warn({ err, change }, "could not announce a request change");
    });
  });
}

/**
 * The request changes announced by any process, read through ONE Redis subscriber connection per
 * process however many clients subscribe (Yoga's pub/sub over a Redis event target), which is
 * subscribed to the channels of the merchants that have streams here. Every message is validated;
 * malformed ones are logged and dropped. All of a process's streams of a merchant receive the same
 * parsed object for one change (graphql/types/request.ts reads the request once for all of them).
 */
export function subscribeRequestChanges(redisUrl: string, logger: Logger) {
  const subscriber = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectionName: `payreq-request-changes-${process.pid}`,
  });
  subscriber.on("error", (err) => logger.warn({ err: { message: err.message } }, "request-change subscriber: redis error"));
  // The event target subscribes and unsubscribes without awaiting; their failures are logged here
  // instead of becoming unhandled rejections. It never publishes (publishRequestChanges does).
  const subscribeClient = {
    on: (event: "message", listener: (channel: string, message: string) => void) => (
      subscriber.on(event, listener),
      subscribeClient
    ),
    subscribe: (...channels: string[]) =>
      subscriber.subscribe(...channels).catch((err: unknown) => logger.warn({ err }, "redis subscribe failed")),
    unsubscribe: (...channels: string[]) =>
      subscriber.unsubscribe(...channels).catch((err: unknown) => logger.debug({ err }, "redis unsubscribe failed")),
  } as unknown as Redis;
  const eventTarget = createRedisEventTarget<PubSubEvent<Channels, typeof CHANNEL>>({
    publishClient: subscribeClient,
    subscribeClient,
    serializer: {
      stringify: JSON.stringify,
      parse: (message: string) => {
        const parsed = requestChange.safeParse(safeJson(message));
        if (parsed.success) return parsed.data;
        logger.warn({ message: message.slice(0, 200) }, "dropped a malformed request-change message");
        return null;
      },
    },
  });
  const pubSub = createPubSub<Channels>({ eventTarget });
  return {
    /**
     * Every valid change of one merchant's requests from the first read on; ends when the consumer
     * stops iterating (at once, also while it waits for a change). Open streams are ended by the
     * GraphQL stream bound (graphql/stream-limit.ts), which also gives back their places.
     */
    changes: (merchantId: string): AsyncIterable<RequestChange> =>
      pipe(
        pubSub.subscribe(CHANNEL, merchantId),
        filter((change): change is RequestChange => change?.merchantId === merchantId),
      ),
    close: () => subscriber.disconnect(),
  };
}

export type RequestChangeFeed = ReturnType<typeof subscribeRequestChanges>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
