import type { Logger } from "../src/logger.js";

/**
 * Reports a dependency's outage as two log lines, one when it starts and one when it ends,
 * however many errors its clients raise in between (they retry with backoff meanwhile).
 */
export function outageReporter(dependency: string, logger: Logger) {
  let outage: { since: number; errors: number } | null = null;
  return {
    failed(this: void, err: unknown) {
      if (outage) {
        outage.errors += 1;
        return;
      }
      outage = { since: Date.now(), errors: 1 };
      const { message, code } = err as { message?: string; code?: string };
      logger.error({ dependency, err: { message, code } }, `${dependency} is unreachable; retrying with backoff`);
    },
    recovered(this: void) {
      if (!outage) return;
      logger.info(
        { dependency, downForMs: Date.now() - outage.since, errors: outage.errors },
        `${dependency} is reachable again`,
      );
      outage = null;
    },
  };
}

export type OutageReporter = ReturnType<typeof outageReporter>;
