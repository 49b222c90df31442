import { db } from "../../db.js";
import type { WebhookAttemptOutcome, WebhookEvent } from "../../generated/prisma/client.js";

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
export async function claimWebhookEvent(id: string, now: Date, leaseMs: number) {
  const claimed = await db.webhookEvent.updateMany({
    where: {
      id,
      state: "PENDING",
      nextAttemptAt: { lte: new Date(now.getTime() + 1000) },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
    },
    data: { leaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return claimed.count === 1 ? db.webhookEvent.findUnique({ where: { id } }) : null;
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
 * Records an attempt and moves the event on: DELIVERED, REFUSED (never retried), EXHAUSTED after
 * the last allowed attempt, or PENDING again after the next delay of the schedule, counted from
 * this attempt. Returns the updated event.
 */
export async function recordWebhookAttempt(event: WebhookEvent, result: AttemptResult, retryDelaysMs: number[]) {
  const number = event.attempts + 1;
  const limit = event.attemptLimit ?? retryDelaysMs.length + 1;
  const finishedAt = new Date(result.startedAt.getTime() + result.durationMs);
  const state =
    result.outcome === "DELIVERED"
      ? "DELIVERED"
      : result.outcome === "REFUSED"
        ? "REFUSED"
        : number >= limit
          ? "EXHAUSTED"
          : "PENDING";
  const delay = retryDelaysMs[Math.min(number - 1, retryDelaysMs.length - 1)] ?? 0;

  const [, updated] = await db.$transaction([
    db.webhookAttempt.create({
      data: {
        eventId: event.id,
        number,
        startedAt: result.startedAt,
        durationMs: result.durationMs,
        outcome: result.outcome,
        statusCode: result.statusCode ?? null,
        error: result.error ?? null,
        responseExcerpt: result.responseExcerpt ?? null,
      },
    }),
    db.webhookEvent.update({
      where: { id: event.id },
      data: {
        attempts: number,
        state,
        leaseUntil: null,
        lastError: result.outcome === "DELIVERED" ? null : (result.error ?? `HTTP ${result.statusCode}`),
        deliveredAt: state === "DELIVERED" ? finishedAt : null,
        nextAttemptAt: state === "PENDING" ? new Date(finishedAt.getTime() + delay) : event.nextAttemptAt,
      },
    }),
  ]);
  return updated;
}
