import { db } from "../../db.js";
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
  // One statement on the delivery hot path (Prisma's updateMany + findUnique cost several).
  const [claimed] = await db.$queryRaw<ClaimedEvent[]>`
    UPDATE webhook_event SET lease_until = ${new Date(now.getTime() + leaseMs)}
    WHERE id = ${id}::uuid AND state = 'PENDING' AND next_attempt_at <= ${new Date(now.getTime() + 1000)}
      AND (lease_until IS NULL OR lease_until < ${now})
    RETURNING id, url, payload, attempts, attempt_limit AS "attemptLimit", next_attempt_at AS "nextAttemptAt"`;
  return claimed ?? null;
}

export type ClaimedEvent = Pick<WebhookEvent, "id" | "url" | "payload" | "attempts" | "attemptLimit" | "nextAttemptAt">;

export interface AttemptResult {
  outcome: WebhookAttemptOutcome;
  startedAt: Date;
  durationMs: number;
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
}

/**
 * Records an attempt and moves the event on: DELIVERED, REFUSED (never retried), EXHAUSTED after
 * the last allowed attempt, or PENDING again after the next delay of the schedule, counted from
 * this attempt. Returns the updated event.
 */
export async function recordWebhookAttempt(event: ClaimedEvent, result: AttemptResult, retryDelaysMs: number[]) {
  const number = event.attempts + 1;
  const limit = event.attemptLimit ?? retryDelaysMs.length + 1;
  const finishedAt = new Date(result.startedAt.getTime() + result.durationMs);
  const state: WebhookEventState =
    result.outcome === "DELIVERED"
      ? "DELIVERED"
      : result.outcome === "REFUSED"
        ? "REFUSED"
        : number >= limit
          ? "EXHAUSTED"
          : "PENDING";
  const delay = retryDelaysMs[Math.min(number - 1, retryDelaysMs.length - 1)] ?? 0;
  const nextAttemptAt = state === "PENDING" ? new Date(finishedAt.getTime() + delay) : event.nextAttemptAt;
  const lastError = result.outcome === "DELIVERED" ? null : (result.error ?? `HTTP ${result.statusCode}`);

  // The attempt row and the event's new state in one statement, so one is never without the other.
  await db.$executeRaw`
    WITH attempt AS (
      INSERT INTO webhook_attempt (id, event_id, number, started_at, duration_ms, outcome, status_code, error, response_excerpt)
      VALUES (gen_random_uuid(), ${event.id}::uuid, ${number}, ${result.startedAt}, ${result.durationMs},
              ${result.outcome}::"WebhookAttemptOutcome", ${result.statusCode ?? null}, ${result.error ?? null}, ${result.responseExcerpt ?? null})
    )
    UPDATE webhook_event SET attempts = ${number}, state = ${state}::"WebhookEventState", lease_until = NULL,
      last_error = ${lastError}, delivered_at = ${state === "DELIVERED" ? finishedAt : null},
      next_attempt_at = ${nextAttemptAt}, updated_at = now()
    WHERE id = ${event.id}::uuid`;
  return { state, nextAttemptAt };
}
