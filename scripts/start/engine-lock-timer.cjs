/**
 * Loaded (`node --require`) into Prisma 6.19's CLI when it migrates (scripts/start/prisma-cli.ts).
 *
 * Its WebAssembly schema engine bounds the wait for PostgreSQL's migration advisory lock with a
 * 10 s timer that it does not clear once the lock is taken, so every `migrate deploy` and
 * `migrate reset` sat idle for about 10 s after its work before the process could exit. Timers the
 * engine starts for 10 s or more are unreferenced here: one still fires if the process is still
 * running (a lock wait keeps its PostgreSQL connection open, and so the process), but none holds
 * an otherwise finished process open. Shorter engine timers (back-offs, sleeps) keep their hold.
 */
"use strict";

const LOCK_TIMEOUT_MS = 10_000;
const startTimer = globalThis.setTimeout;

/**
 * @param {(...args: unknown[]) => void} callback
 * @param {number} [delay]
 * @param {unknown[]} args
 */
function setTimeoutLettingGoOfTheEngine(callback, delay = 0, ...args) {
  const timer = startTimer(callback, delay, ...args);
  if (delay >= LOCK_TIMEOUT_MS && new Error().stack?.includes("wasm://")) timer.unref();
  return timer;
}

// Every other timer behaves as usual.
globalThis.setTimeout = /** @type {typeof setTimeout} */ (
  /** @type {unknown} */ (Object.assign(setTimeoutLettingGoOfTheEngine, { __promisify__: startTimer.__promisify__ }))
);
