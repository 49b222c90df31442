import type { ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin, type YogaInitialContext } from "graphql-yoga";
import { isDomainError, type DomainError, ExternalServiceError, UnauthenticatedError } from "../domain/errors.js";
import { clientAddressOf } from "../transport/request-context.js";
import type { StreamSlot, StreamSlots } from "../transport/stream-slots.js";
import type { GraphQLContext } from "./context.js";
import { callRefusal } from "./call-refusal.js";

/** How the streams of revoked keys are found (key-revocations.ts). */
export interface RevokedKeys {
  /** Of these key prefixes, the revoked ones; never rejects (what cannot be read is taken as not revoked, this time). */
  among: (prefixes: string[]) => Promise<string[]>;
  /** How often the keys of this process's open streams are looked up while it holds any. */
  everyMs: number;
}

/** One open stream: its key (null without one), and how to end it, with a last result or none. */
interface OpenStream {
  keyPrefix: string | null;
  close: (last?: ExecutionResult) => Promise<void>;
}

/**
 * Bounds the subscription streams open at once per API key and per client address (see
 * transport/stream-slots.ts). A stream past either bound is refused before it opens: HTTP 429 with
 * Retry-After and `extensions.code` RATE_LIMIT_EXCEEDED. A stream gives its place back as soon as
 * it ends: the client went away, the subscription ended, or `closeAll` ended it.
 *
 * A key's revocation ends its streams too, in every process: each looks up the keys of its open
 * streams every `revoked.everyMs`, and a revoked key's streams get a last result, the error
 * KEY_NOT_AUTHORIZED, then `complete`.
 *
 * The plugin goes after every plugin that may refuse an operation, so a refused one takes no place.
 */
export function boundedStreams(slots: StreamSlots, revoked?: RevokedKeys) {
  const open = new Set<OpenStream>();
  let stopping = false;
  let checks: NodeJS.Timeout | null = null;
  let checking = false;

  /** Ends the streams of the keys found revoked since the last look; stops looking while no stream has a key. */
  async function endRevoked(): Promise<void> {
    const prefixes = new Set([...open].flatMap((stream) => (stream.keyPrefix ? [stream.keyPrefix] : [])));
    if (prefixes.size === 0 && checks) {
      clearInterval(checks);
      checks = null;
    }
    if (prefixes.size === 0 || checking || !revoked) return;
    checking = true;
    try {
      const found = new Set(await revoked.among([...prefixes]));
      if (found.size === 0) return;
      const last = refusal(new UnauthenticatedError("The API key was revoked; its streams have ended."));
      await Promise.all([...open].filter((stream) => found.has(stream.keyPrefix!)).map((stream) => stream.close(last)));
    } finally {
      checking = false;
    }
  }

  const plugin: Plugin<GraphQLContext> = {
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn(async (args) => {
        const context = args.contextValue as GraphQLContext & YogaInitialContext;
        let slot: StreamSlot;
        let keyPrefix: string | null;
        try {
          // A call without a valid key is counted by its address only; its field then fails with KEY_NOT_AUTHORIZED.
          keyPrefix = (await context.key().catch(() => null))?.keyPrefix ?? null;
          slot = await slots.acquire({ keyPrefix, address: clientAddressOf(context.request) });
        } catch (error) {
          if (isDomainError(error)) return refusal(error);
          throw error;
        }
        let result: ExecutionResult | AsyncIterable<ExecutionResult>;
        try {
          // graphql's subscribe: an error result, or a stream of execution results.
          result = (await subscribeFn(args)) as ExecutionResult | AsyncIterable<ExecutionResult>;
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
        const stream = endable(result, slot, keyPrefix, open);
        if (revoked && keyPrefix && !checks) checks = setInterval(() => void endRevoked(), revoked.everyMs).unref();
        return stream;
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
      await Promise.all([...open].map((stream) => stream.close()));
    },
    /** Ends every open stream, as closeAll, and refuses any stream that is still opening (the process is stopping). */
    stop(): Promise<void> {
      stopping = true;
      return this.closeAll();
    },
  };
}

function refusal(error: DomainError): ExecutionResult {
  return { errors: [callRefusal(error)] };
}

/**
 * `source` as an iterator that can be ended from outside (`open` holds it while it is open), and
 * that gives back its slot the moment it ends, whichever way: the source ran out or failed, the
 * consumer returned (the client went away), or it was closed.
 */
function endable(
  source: AsyncIterable<ExecutionResult>,
  slot: StreamSlot,
  keyPrefix: string | null,
  open: Set<OpenStream>,
): AsyncIterableIterator<ExecutionResult> {
  type Result = IteratorResult<ExecutionResult>;
  const iterator = source[Symbol.asyncIterator]();
  let waiting: ((result: Result) => void) | null = null;
  const done = (): Result => ({ done: true, value: undefined });
  let released: Promise<void> | null = null;
  /** The result a stream closed with is still to give, before it is done. */
  let lastResult: Result | null = null;
  const end = (): Promise<void> => {
    if (released) return released;
    open.delete(stream);
    released = slot.release();
    void iterator.return?.()?.catch(() => {});
    return released;
  };
  // Ended from outside: the pending `next` answers the last result (if any) or done, and Yoga
  // completes the stream once it is done.
  const stream: OpenStream = {
    keyPrefix,
    close(last) {
      if (released) return released;
      const wake = waiting;
      waiting = null;
      const release = end();
      const first: Result = last ? { done: false, value: last } : done();
      if (wake) wake(first);
      else if (last) lastResult = first;
      return release;
    },
  };
  open.add(stream);
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (lastResult) {
        const last = lastResult;
        lastResult = null;
        return Promise.resolve(last);
      }
      if (released) return Promise.resolve(done());
      return new Promise<Result>((resolve, reject) => {
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
      lastResult = null;
      void end();
      return Promise.resolve(done());
    },
  };
}
