import { writeFile } from "node:fs/promises";

/**
 * The worker serves no port, so its health is a file: every `everyMs` it checks that PostgreSQL and
 * Redis answer (`healthy`) and, if so, writes the time into `file`. worker/health-check.ts (the
 * container's health check) reads how old that time is.
 *
 * A stopped worker does not beat: `stop()` resolves once no write can follow it. A beat whose check
 * is still waiting when it is called writes nothing, and a write already under way is waited for
 * (the check itself is not: with PostgreSQL or Redis down it may wait long, and then writes nothing).
 */
export function startHeartbeat(
  file: string,
  everyMs: number,
  healthy: () => Promise<unknown>,
  write: (file: string, text: string) => Promise<void> = writeFile,
): { stop(): Promise<void> } {
  let stopped = false;
  let beating = false;
  let writing: Promise<void> | undefined;
  const beat = async () => {
    // One beat at a time: while the check waits (an outage), the next ones are skipped, not piled up.
    if (beating) return;
    beating = true;
    try {
      await healthy();
    } catch {
      return; // an outage is logged where it happens; the file just grows old
    } finally {
      beating = false;
    }
    if (stopped) return;
    writing = write(file, `${new Date().toISOString()}\n`).catch(() => {});
    await writing;
  };
  void beat();
  const timer = setInterval(() => void beat(), everyMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await writing;
    },
  };
}

/** How old a heartbeat may be before the worker counts as unhealthy: three missed beats. */
export const heartbeatMaxAgeMs = (everyMs: number) => 3 * everyMs;
