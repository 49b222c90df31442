import type { ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin, type YogaInitialContext } from "graphql-yoga";
import { DomainError, ExternalServiceError } from "../domain/errors.js";
import { clientAddressOf } from "../transport/request-context.js";
import type { StreamSlot, StreamSlots } from "../transport/stream-slots.js";
import type { GraphQLContext } from "./context.js";
import { refusalOf } from "./refusal.js";

/**
 * Bounds the subscription streams open at once per API key and per client address (see
 * transport/stream-slots.ts). A stream past either bound is refused before it opens: HTTP 429 with
 * Retry-After and `extensions.code` RATE_LIMIT_EXCEEDED. A stream gives its place back as soon as
 * it ends: the client went away, the subscription ended, or `closeAll` ended it.
 *
 * The plugin goes after every plugin that may refuse an operation, so a refused one takes no place.
 */
export function boundedStreams(slots: StreamSlots) {
  const open = new Set<() => Promise<void>>();
  let stopping = false;

  const plugin: Plugin<GraphQLContext> = {
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn(async (args) => {
        const context = args.contextValue as GraphQLContext & YogaInitialContext;
        let slot: StreamSlot;
        try {
          // A call without a valid key is counted by its address only; its field then fails with KEY_NOT_AUTHORIZED.
          const key = await context.key().catch(() => null);
          slot = await slots.acquire({ keyPrefix: key?.keyPrefix ?? null, address: clientAddressOf(context.request) });
        } catch (error) {
          if (error instanceof DomainError) return refusal(error);
          throw error;
        }
        let result: Awaited<ReturnType<typeof subscribeFn>>;
        try {
          result = await subscribeFn(args);
        } catch (error) {
          void slot.release();
          throw error;
        }
        if (!isAsyncIterable(result)) {
          void slot.release();
          return result;
        }
        // A stream that was still taking its place when the process began to stop opens ended.
        if (stopping) {
          void slot.release();
          await result[Symbol.asyncIterator]().return?.();
          return refusal(new ExternalServiceError("The service is stopping; subscribe again."));
        }
        return endable(result, slot, open);
      });
    },
  };

  return {
    plugin,
    /**
     * Ends every stream open in this process (each gets a `complete` event); settles once their
     * places are given back.
     */
    async closeAll(): Promise<void> {
      await Promise.all([...open].map((close) => close()));
    },
    /** Ends every open stream, as closeAll, and refuses any stream that is still opening (the process is stopping). */
    stop(): Promise<void> {
      stopping = true;
      return this.closeAll();
    },
  };
}

function refusal(error: DomainError): ExecutionResult {
  return { errors: [refusalOf(error)] };
}

/**
 * `source` as an iterator that can be ended from outside (`open` holds its `close`), and that
 * gives back its slot the moment it ends, whichever way: the source ran out or failed, the consumer
 * returned (the client went away), or it was closed.
 */
function endable<T>(source: AsyncIterable<T>, slot: StreamSlot, open: Set<() => Promise<void>>): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  const done = (): IteratorResult<T> => ({ done: true, value: undefined });
  let released: Promise<void> | null = null;
  const end = (): Promise<void> => {
    if (released) return released;
    open.delete(close);
    released = slot.release();
    void iterator.return?.()?.catch(() => {});
    return released;
  };
  // Ended from outside: the pending `next` answers done, and Yoga completes the stream.
  const close = () => {
    const wake = waiting;
    waiting = null;
    const release = end();
    wake?.(done());
    return release;
  };
  open.add(close);
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (released) return Promise.resolve(done());
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = resolve;
        // Once the consumer has returned (the client went away), a late answer of the source is
        // dropped: Yoga would write it to a stream already cancelled.
        iterator.next().then(
          (result) => {
            if (waiting !== resolve) return;
            waiting = null;
            if (result.done) void end();
            resolve(result);
          },
          (error: unknown) => {
            if (waiting !== resolve) return;
            waiting = null;
            void end();
            reject(error);
          },
        );
      });
    },
    return() {
      waiting = null;
      void end();
      return Promise.resolve(done());
    },
  };
}
