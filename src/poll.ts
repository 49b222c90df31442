import { inspect } from "node:util";

/**
 * Reads `read` every `everyMs` until `done` holds of its value, and returns that value. Past
 * `timeoutMs` it throws, naming what it waited for (`what`, worked out then if a function) and the
 * last value read. Every wait for a condition that gives up uses it (or `readUntil`, for one whose
 * caller answers without it): start-up, the API's wait for Redis, a test event's wait for its attempt,
 * the supervisor, the engines, the tests and the bench. The worker's loops never give up, so they are
 * its own: its wait for the database at start (backing off while it reports the outage) and the
 * outbox's poll (worker/outbox-poll.ts).
 */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  what: string | (() => string) = done.toString(),
  everyMs = 50,
): Promise<T> {
  const { value, reached } = await readUntil(read, done, timeoutMs, everyMs);
  if (reached) return value;
  const last = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 500 });
  const waitedFor = typeof what === "function" ? what() : what;
  throw new Error(`Waited ${timeoutMs} ms for ${waitedFor}; it did not happen. Last value read: ${last}`);
}

/** Reads `read` every `everyMs` until `done` holds of its value or `timeoutMs` has passed: the last value, and which. */
export async function readUntil<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 50,
): Promise<{ value: T; reached: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return { value, reached: true };
    if (Date.now() > deadline) return { value, reached: false };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
