import type { Logger } from "../src/logger.js";

/**
 * An outage ends once its dependency has answered and raised no error for this long: the
 * connections a reset cut fail one after another, some after another one has connected again, and
 * while other work keeps the cores busy, over a second after.
 */
export const SETTLED_MS = 3_000;

/**
 * Reports a dependency's outage as two log lines, one when it starts and one when it ends,
 * however many errors its clients raise in between (they retry with backoff meanwhile).
 */
export function outageReporter(dependency: string, logger: Logger) {
  let outage: { since: number; lastErrorAt: number; errors: number; settling?: NodeJS.Timeout } | null = null;
  const recovered = () => {
    if (!outage || outage.settling) return;
    const wait = outage.lastErrorAt + SETTLED_MS - Date.now();
    if (wait > 0) {
      outage.settling = setTimeout(() => {
        if (outage) outage.settling = undefined;
        recovered();
      }, wait).unref();
      return;
    }
    logger.info({ dependency, downForMs: Date.now() - outage.since, errors: outage.errors }, `${dependency} is reachable again`);
    outage = null;
  };
  return {
    failed(this: void, err: unknown) {
      const now = Date.now();
      if (outage) {
        // An error after an answer: the outage goes on.
        clearTimeout(outage.settling);
        outage.settling = undefined;
        outage.errors += 1;
        outage.lastErrorAt = now;
        return;
      }
      outage = { since: now, lastErrorAt: now, errors: 1 };
      const { message, code } = err as { message?: string; code?: string };
      logger.error({ dependency, err: { message, code } }, `${dependency} is unreachable; retrying with backoff`);
    },
    recovered,
  };
}

export type OutageReporter = ReturnType<typeof outageReporter>;

/**
 * The failure of a call to Redis, told apart from PostgreSQL's where either could fail (the outbox's
 * poll, a BullMQ worker's processing): a socket's ECONNRESET names no dependency.
 */
export class RedisCallFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** `call`, whose failure is Redis's (RedisCallFailed). */
export const onRedis = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err: unknown) => {
    throw new RedisCallFailed(err);
  });
