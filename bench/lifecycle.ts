/**
 * Leaving nothing behind: every process the bench starts and every clean-up step it needs are
 * registered here, and every way out (the end, a failure, a signal, the deadline) runs them once.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** Something the bench started that must stop: `stop` ends it gracefully or not, `kill` synchronously (last resort). */
export interface Stoppable {
  stop(): Promise<unknown>;
  kill(): void;
}

const running = new Set<Stoppable>();
const steps: { what: string; run: () => Promise<unknown> }[] = [];
let stopping = false;
let cleanedUp: Promise<boolean> | null = null;
let failing = false;

/** Tracks a started process until `release` says it ended by itself; returns `release`. */
export function track(process: Stoppable): () => void {
  running.add(process);
  return () => running.delete(process);
}

/** A clean-up step, run after every process is stopped, in the order added; `what` names it if it fails. */
export function onCleanUp(what: string, run: () => Promise<unknown>): void {
  steps.push({ what, run });
}

/** True once the bench is stopping: a process ending now was stopped, not lost. */
export const isStopping = () => stopping;

/**
 * Stops every process, then runs the clean-up steps (signing keys, queues, database); safe to call
 * from any exit path. False when something may be left behind.
 */
export async function cleanUp(): Promise<boolean> {
  cleanedUp ??= (async () => {
    stopping = true;
    await Promise.all([...running].map((process) => process.stop()));
    let clean = true;
    for (const step of steps) {
      await step.run().catch((err: unknown) => {
        clean = false;
        console.error(`bench: could not ${step.what}: ${String(err)}`);
      });
    }
    return clean;
  })();
  // Clean-up has a deadline too: a database that does not answer must not keep the bench alive.
  const clean = await Promise.race([cleanedUp, sleep(45_000).then(() => null)]);
  if (clean === null) console.error("bench: clean-up unfinished after 45 s");
  return clean === true;
}

/** The bench's own failures ("bench: …") say enough; anything else comes with its stack. */
export const describe = (err: unknown) =>
  err instanceof Error ? (err.message.startsWith("bench:") ? err.message : (err.stack ?? err.message)) : String(err);

/** Prints why the bench stops, cleans up and exits 1; only the first reason counts. */
export async function fail(message: string): Promise<never> {
  if (!failing) {
    failing = true;
    console.error(`\n${message}`);
    await cleanUp();
    process.exit(1);
  }
  return new Promise<never>(() => {});
}

/** Cleans up and exits: 0 when nothing was left behind. */
export async function finish(): Promise<never> {
  process.exit((await cleanUp()) ? 0 : 1);
}

/** Stops the bench on a signal, an uncaught error, or at the deadline; kills what is left if the process leaves another way. */
export function installGuards(deadlineMs: number): void {
  // SIGKILL is synchronous, so it still reaches the children from an `exit` handler.
  process.on("exit", () => running.forEach((child) => child.kill()));
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.once(signal, () => void fail(`bench: stopped by ${signal}`));
  // A failed top-level await arrives as an uncaught exception.
  for (const event of ["uncaughtException", "unhandledRejection"] as const) process.on(event, (err) => void fail(describe(err)));
  setTimeout(() => void fail(`bench: not finished within ${deadlineMs / 60_000} minutes; stopped`), deadlineMs).unref();
}
