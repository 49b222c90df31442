import { createPubSub, type PubSubEvent, type PubSubEventTarget } from "@graphql-yoga/subscription";
import { onRequestChange, requestChange, type RequestChange } from "../domain/requests/changes.js";
import type { Logger } from "../logger.js";
import { connectRedis, type RedisClient, type RedisTopology } from "../redis-connection.js";

/**
 * Each merchant's changes travel on a Redis channel of their own, `payreq:request-changes:<merchantId>`:
 * a process receives only the changes of merchants it has subscribers for, and a change reaches
 * only its merchant's streams, so one merchant's activity costs other merchants nothing. On a Redis
 * Cluster the channels are sharded (SPUBLISH/SSUBSCRIBE): each lives on the shard that owns its
 * slot, so a change crosses no other shard, where plain PUBLISH is copied to every node.
 */
const CHANNEL = "payreq:request-changes";
type Channels = { [CHANNEL]: [merchantId: string, change: RequestChange] };
type ChangeEvent = PubSubEvent<Channels, typeof CHANNEL>;

/** The Redis channel of one merchant's changes. */
export const channelOf = (merchantId: string) => `${CHANNEL}:${merchantId}`;

/**
 * Forwards the request changes this process announces to every API process over Redis pub/sub.
 * Best effort: a change that cannot be published is logged; the database stays the record.
 * Returns a function that stops forwarding.
 */
export function publishRequestChanges(publisher: RedisClient, logger: Logger): () => void {
  const publish = publisher.isCluster ? publisher.spublish.bind(publisher) : publisher.publish.bind(publisher);
  return onRequestChange((change) => {
    publish(channelOf(change.merchantId), JSON.stringify(change)).catch((err: unknown) => {
      logger.warn({ err, change }, "could not announce a request change");
    });
  });
}

/**
 * The request changes announced by any process, read through ONE Redis subscriber connection per
 * process however many clients subscribe (Yoga's pub/sub over the event target below), which is
 * subscribed to the channels of the merchants that have streams here. Every message is validated
 * once; malformed ones, and changes of another merchant than the channel's, are logged and dropped.
 * All of a process's streams of a merchant receive the same parsed object for one change
 * (graphql/types/request.ts reads the request once for all of them).
 */
export function subscribeRequestChanges(topology: RedisTopology, logger: Logger) {
  const subscriber = connectRedis(topology, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectionName: `payreq-request-changes-${process.pid}`,
    // A Cluster client keeps one subscriber connection per master, each for the channels of its slots.
    shardedSubscribers: true,
  });
  subscriber.on("error", (err: Error) =>
    logger.warn({ err: { message: err.message } }, "request-change subscriber: redis error"),
  );
  const pubSub = createPubSub<Channels>({ eventTarget: merchantChannels(subscriber, logger) });
  return {
    /**
     * Every valid change of one merchant's requests from the first read on; ends when the consumer
     * stops iterating (at once, also while it waits for a change). Open streams are ended by the
     * GraphQL stream bound (graphql/stream-limit.ts), which also gives back their places.
     */
    changes: (merchantId: string): AsyncIterable<RequestChange> => pubSub.subscribe(CHANNEL, merchantId),
    close: () => subscriber.disconnect(),
  };
}

export type RequestChangeFeed = ReturnType<typeof subscribeRequestChanges>;

type ChangeListener = ((event: ChangeEvent) => void) | { handleEvent(event: ChangeEvent): void };

/**
 * The event target Yoga's pub/sub reads from: an event's type is a merchant's channel. The
 * subscriber connection joins a channel when the channel's first listener comes and leaves it when
 * its last one goes; each message is parsed once and its one event goes to all the channel's
 * listeners. It only receives: changes are published by publishRequestChanges.
 */
function merchantChannels(subscriber: RedisClient, logger: Logger): PubSubEventTarget<Channels> {
  const listeners = new Map<string, Set<ChangeListener>>();
  const sharded = subscriber.isCluster;
  const subscribe = (channel: string) => (sharded ? subscriber.ssubscribe(channel) : subscriber.subscribe(channel));
  const unsubscribe = (channel: string) => (sharded ? subscriber.sunsubscribe(channel) : subscriber.unsubscribe(channel));
  subscriber.on(sharded ? "smessage" : "message", (channel: string, message: string) => {
    const channelListeners = listeners.get(channel);
    if (!channelListeners) return;
    const parsed = requestChange.safeParse(safeJson(message));
    if (!parsed.success || channelOf(parsed.data.merchantId) !== channel) {
      logger.warn({ channel, message: message.slice(0, 200) }, "dropped a malformed request-change message");
      return;
    }
    const event: ChangeEvent = new CustomEvent(channel, { detail: parsed.data });
    for (const listener of channelListeners) {
      if (typeof listener === "function") listener(event);
      else listener.handleEvent(event);
    }
  });
  // Subscribing and unsubscribing are not awaited by the pub/sub; their failures are logged here
  // instead of becoming unhandled rejections.
  return {
    addEventListener(channel: string, listener: ChangeListener | null) {
      if (!listener) return;
      let channelListeners = listeners.get(channel);
      if (!channelListeners) {
        listeners.set(channel, (channelListeners = new Set()));
        subscribe(channel).catch((err: unknown) => logger.warn({ err, channel }, "redis subscribe failed"));
      }
      channelListeners.add(listener);
    },
    removeEventListener(channel: string, listener: ChangeListener | null) {
      const channelListeners = listeners.get(channel);
      if (!listener || !channelListeners?.delete(listener) || channelListeners.size > 0) return;
      listeners.delete(channel);
      unsubscribe(channel).catch((err: unknown) => logger.debug({ err, channel }, "redis unsubscribe failed"));
    },
    dispatchEvent() {
      throw new Error("request changes are published with publishRequestChanges, not through the subscriber");
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
