import { writeFile } from "node:fs/promises";

/**
 * The worker serves no port, so its health is a file: every `everyMs` it checks that PostgreSQL and
 * Redis answer (`healthy`) and, if so, writes the time into `file`. worker/health-check.ts (the
 * container's health check) reads how old that time is.
 */
export function startHeartbeat(file: string, everyMs: number, healthy: () => Promise<unknown>): { stop(): void } {
  const beat = () =>
    healthy().then(
      () => writeFile(file, `${new Date().toISOString()}\n`).catch(() => {}),
      () => {}, // an outage is logged where it happens; the file just grows old
    );
  void beat();
  const timer = setInterval(() => void beat(), everyMs);
  return { stop: () => clearInterval(timer) };
}

/** How old a heartbeat may be before the worker counts as unhealthy: three missed beats. */
export const heartbeatMaxAgeMs = (everyMs: number) => 3 * everyMs;
