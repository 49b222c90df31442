import type { WebhookAttemptOutcome, DeliveryState } from "../../generated/prisma/client.js";

/**
 * A delivery's retry schedule, the rule the worker applies to each attempt's outcome; the
 * outbox row in PostgreSQL keeps what it decides (docs/architecture.md, "Delivery schedule").
 */

/** What an attempt moved its event to. */
export interface AttemptVerdict {
  state: DeliveryState;
  /** When a PENDING event's next attempt is due. */
  nextAttemptAt?: Date;
}

/**
 * How many attempts an event gets: its own limit (set when it is redelivered), else one more than
 * the delays of the schedule. True when attempt `number` (counted from 1) is the last.
 */
export function isLastAttempt(number: number, attemptLimit: number | null, retryDelaysMs: readonly number[]): boolean {
  return number >= (attemptLimit ?? retryDelaysMs.length + 1);
}

/**
 * The wait before attempt `number` (2 and on), counted from the attempt before it: the schedule's
 * delays in order, its last repeated for any attempt beyond it.
 */
export function delayBeforeAttempt(number: number, retryDelaysMs: readonly number[]): number {
  return retryDelaysMs[Math.min(number - 2, retryDelaysMs.length - 1)] ?? 0;
}

/**
 * What attempt `number` moves its event to: DELIVERED, REFUSED (never retried), EXHAUSTED after
 * the last allowed attempt, or PENDING again, due after the schedule's next delay counted from
 * when this attempt finished.
 */
export function verdictOf(
  number: number,
  attemptLimit: number | null,
  result: { outcome: Exclude<WebhookAttemptOutcome, "IN_FLIGHT"> },
  finishedAt: Date,
  retryDelaysMs: readonly number[],
): AttemptVerdict {
  if (result.outcome === "DELIVERED" || result.outcome === "REFUSED") return { state: result.outcome };
  if (isLastAttempt(number, attemptLimit, retryDelaysMs)) return { state: "EXHAUSTED" };
  return { state: "PENDING", nextAttemptAt: new Date(finishedAt.getTime() + delayBeforeAttempt(number + 1, retryDelaysMs)) };
}
