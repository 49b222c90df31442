import { db, fromUtcText, pool, toUtcText as utc } from "../../db.js";

import type { WebhookAttemptOutcome, WebhookEvent, WebhookEventState } from "../../generated/prisma/client.js";

/** Postgres NOTIFY channel on which new and redelivered events are announced to the worker. */
export const WEBHOOK_CHANNEL = "webhook_events";

/**
 * The outbox's state machine. Postgres is the truth about every event: its state, attempts so far
 * and next due time; the worker's queue only holds timers and can be rebuilt from here.
 */

/** Pending events not yet handed to the queue, claimed so that concurrent workers split them. */
export async function drainWebhookEvents(
  limit: number,
  hand: (events: Pick<WebhookEvent, "id" | "nextAttemptAt" | "attempts">[]) => Promise<void>,
) {
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<Pick<WebhookEvent, "id" | "nextAttemptAt" | "attempts">[]>`
      SELECT id, next_attempt_at AS "nextAttemptAt", attempts FROM webhook_event
      WHERE state = 'PENDING' AND enqueued_at IS NULL
      ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return 0;
    await hand(events);
    await tx.webhookEvent.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { enqueuedAt: new Date() } });
    return events.length;
  });
}

/** Pending events overdue by more than `graceMs` and held by no worker: their timer may be lost. */
export async function overdueWebhookEvents(now: Date, graceMs: number, limit: number) {
  return db.webhookEvent.findMany({
    where: {
      state: "PENDING",
      enqueuedAt: { not: null },
      nextAttemptAt: { lt: new Date(now.getTime() - graceMs) },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
    },
    select: { id: true, nextAttemptAt: true },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
  });
}

/**
 * Takes the event for one attempt: only a pending, due event that no other worker holds. The lease
 * outlives the attempt's timeout, so a worker killed mid-delivery releases it by expiry.
 */
export async function claimWebhookEvent(id: string, now: Date, leaseMs: number): Promise<ClaimedEvent | null> {
  // The delivery hot path is plain SQL on the pool: one statement, no ORM (see bench/).
  const { rows } = await pool.query<ClaimedEvent & { nextAttemptAt: string }>(
    `UPDATE webhook_event SET lease_until = $2
     WHERE id = $1 AND state = 'PENDING' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $4)
     RETURNING id, url, payload, attempts, attempt_limit AS "attemptLimit", correlation_id AS "correlationId",
       to_json(next_attempt_at) #>> '{}' AS "nextAttemptAt"`,
    [id, utc(new Date(now.getTime() + leaseMs)), utc(new Date(now.getTime() + 1000)), utc(now)],
  );
  const claimed = rows[0];
  return claimed ? { ...claimed, nextAttemptAt: fromUtcText(claimed.nextAttemptAt) } : null;
}

export type ClaimedEvent = Pick<
  WebhookEvent,
  "id" | "url" | "payload" | "attempts" | "attemptLimit" | "nextAttemptAt" | "correlationId"
>;

/** How many events wait for delivery (for /metrics). */
export async function pendingWebhookEvents(): Promise<number> {
  const { rows } = await pool.query<{ count: string }>("SELECT count(*) FROM webhook_event WHERE state = 'PENDING'");
  return Number(rows[0]!.count);
}

/** Attempts recorded so far, by outcome (for /metrics). */
export async function webhookAttemptsByOutcome(): Promise<{ outcome: string; count: number }[]> {
  const { rows } = await pool.query<{ outcome: string; count: string }>(
    "SELECT outcome, count(*) FROM webhook_attempt GROUP BY outcome",
  );
  return rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
}

export interface AttemptResult {
  outcome: WebhookAttemptOutcome;
  startedAt: Date;
  durationMs: number;
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
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
 * Records an attempt and moves the event on: DELIVERED, REFUSED (never retried), EXHAUSTED after
 * the last allowed attempt, or PENDING again after the next delay of the schedule, counted from
 * this attempt. Returns the updated event.
 */
export async function recordWebhookAttempt(event: ClaimedEvent, result: AttemptResult, retryDelaysMs: number[]) {
  const number = event.attempts + 1;
  const finishedAt = new Date(result.startedAt.getTime() + result.durationMs);
  const state: WebhookEventState =
    result.outcome === "DELIVERED"
      ? "DELIVERED"
      : result.outcome === "REFUSED"
        ? "REFUSED"
        : isLastAttempt(number, event.attemptLimit, retryDelaysMs)
          ? "EXHAUSTED"
          : "PENDING";
  const nextAttemptAt =
    state === "PENDING" ? new Date(finishedAt.getTime() + delayBeforeAttempt(number + 1, retryDelaysMs)) : event.nextAttemptAt;
  const lastError = result.outcome === "DELIVERED" ? null : (result.error ?? `HTTP ${result.statusCode}`);

  // The attempt row and the event's new state in one statement, so one is never without the other.
  await pool.query(
    `WITH attempt AS (
       INSERT INTO webhook_attempt (id, event_id, number, started_at, duration_ms, outcome, status_code, error, response_excerpt)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8)
     )
     UPDATE webhook_event SET attempts = $2, state = $9, lease_until = NULL, last_error = $10, delivered_at = $11,
       next_attempt_at = $12, updated_at = now()
     WHERE id = $1`,
    [
      event.id,
      number,
      utc(result.startedAt),
      result.durationMs,
      result.outcome,
      result.statusCode ?? null,
      result.error ?? null,
      result.responseExcerpt ?? null,
      state,
      lastError,
      state === "DELIVERED" ? utc(finishedAt) : null,
      utc(nextAttemptAt),
    ],
  );
  return { state, nextAttemptAt };
}
