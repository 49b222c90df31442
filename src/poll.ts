import { inspect } from "node:util";

/**
 * Reads `read` every `everyMs` until `done` holds of its value, and returns that value. Past
 * `timeoutMs` it throws, naming what it waited for (`what`, worked out then if a function) and the
 * last value read. The one polling loop of the project: start-up, the API's wait for Redis, the
 * supervisor, the tests and the bench use it.
 */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  what: string | (() => string) = `${done}`,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const last = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 500 });
      const waitedFor = typeof what === "function" ? what() : what;
      throw new Error(`Waited ${timeoutMs} ms for ${waitedFor}; it did not happen. Last value read: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
