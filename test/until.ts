import { inspect } from "node:util";

/**
 * Polls `read` until `done` holds and returns that value. Past the deadline it throws, naming what
 * it waited for (`what`, else `done`'s source) and the last value read.
 */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  what = `${done}`,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const last = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 500 });
      throw new Error(`Waited ${timeoutMs} ms for ${what}; it did not happen. Last value read: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
