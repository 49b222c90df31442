import DataLoader from "dataloader";
import { fromUtcText, pool, prepared, toUtcText as utc } from "../src/db.js";
import type { WebhookAttemptOutcome, WebhookEvent, WebhookEventState } from "../src/generated/prisma/client.js";

/**
 * The worker's side of the webhook outbox. PostgreSQL is the truth about every event (its state,
 * its attempts, when the next one is due); BullMQ holds the timers and can be rebuilt from here.
 * Attempts are started and finished in batches: one statement for all the deliveries that reach
 * the same step within a couple of milliseconds.
 */

/** How long the deliveries reaching one step wait for others to join their statement. */
const BATCH_WINDOW_MS = 2;

export interface DrainedEvent {
  id: string;
  attempts: number;
  attemptLimit: number | null;
  nextAttemptAt: Date;
}

/**
 * Marks up to `limit` pending events that no queue holds yet as handed over, and returns them.
 * One statement, so no row stays locked while the caller talks to Redis; several workers split
 * the rows (SKIP LOCKED). An event whose hand-over then fails is found again by `overdueEvents`.
 */
export async function takeUndrainedEvents(limit: number): Promise<DrainedEvent[]> {
  const { rows } = await pool.query<DrainedEvent & { nextAttemptAt: string }>(
    prepared(
      `UPDATE webhook_event SET enqueued_at = now()
     WHERE id IN (SELECT id FROM webhook_event WHERE state = 'PENDING' AND enqueued_at IS NULL
                  ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id, attempts, attempt_limit AS "attemptLimit", to_json(next_attempt_at) #>> '{}' AS "nextAttemptAt"`,
      [limit],
    ),
  );
  return rows.map((row) => ({ ...row, nextAttemptAt: fromUtcText(row.nextAttemptAt) }));
}

/** Pending events overdue by more than `graceMs` that no worker holds: their queue entry may be lost. */
export async function overdueEvents(now: Date, graceMs: number, limit: number): Promise<DrainedEvent[]> {
  const { rows } = await pool.query<DrainedEvent & { nextAttemptAt: string }>(
    prepared(
      `SELECT id, attempts, attempt_limit AS "attemptLimit", to_json(next_attempt_at) #>> '{}' AS "nextAttemptAt"
     FROM webhook_event
     WHERE state = 'PENDING' AND enqueued_at IS NOT NULL AND next_attempt_at < $1 AND (lease_until IS NULL OR lease_until < $2)
     ORDER BY next_attempt_at LIMIT $3`,
      [utc(new Date(now.getTime() - graceMs)), utc(now), limit],
    ),
  );
  return rows.map((row) => ({ ...row, nextAttemptAt: fromUtcText(row.nextAttemptAt) }));
}

/** An event taken for one attempt, whose attempt row is already written (IN_FLIGHT). */
export type StartedAttempt = Pick<
  WebhookEvent,
  "id" | "url" | "payload" | "attempts" | "attemptLimit" | "correlationId" | "traceparent"
> & {
  attemptId: string;
  startedAt: Date;
};

export interface AttemptResult {
  outcome: Exclude<WebhookAttemptOutcome, "IN_FLIGHT">;
  durationMs: number;
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
}

/** What an attempt moved its event to. */
export interface AttemptVerdict {
  state: WebhookEventState;
  /** When a PENDING event's next attempt is due. */
  nextAttemptAt?: Date;
}

/**
 * The outbox's statements, batched. `start` takes a pending event for one attempt and records the
 * attempt before anything is sent (a worker killed mid-delivery leaves it IN_FLIGHT). An event whose
 * lease is still running is another attempt's: a second job for it (given by the reconcile while its
 * first one waited out a Redis outage, or given back by Redis) finds it taken and sends nothing. `finish`
 * records what the attempt came to and moves the event on, attempt and event in one statement.
 */
export function openOutbox(leaseMs: number) {
  const starts = new DataLoader<string, StartedAttempt | null>(
    async (ids) => {
      const startedAt = new Date();
      const { rows } = await pool.query<Omit<StartedAttempt, "startedAt">>(
        prepared(
          `WITH claimed AS (
           UPDATE webhook_event SET attempts = attempts + 1, lease_until = $2
           WHERE id = ANY($1::uuid[]) AND state = 'PENDING' AND (lease_until IS NULL OR lease_until <= $3)
           RETURNING id, url, payload, attempts, attempt_limit, correlation_id, traceparent),
         attempt AS (
           INSERT INTO webhook_attempt (id, event_id, number, started_at, outcome)
           SELECT gen_random_uuid(), id, attempts, $3, 'IN_FLIGHT' FROM claimed
           RETURNING id, event_id)
         SELECT c.id, c.url, c.payload, c.attempts, c.attempt_limit AS "attemptLimit",
                c.correlation_id AS "correlationId", c.traceparent, a.id AS "attemptId"
         FROM claimed c JOIN attempt a ON a.event_id = c.id`,
          [ids, utc(new Date(startedAt.getTime() + leaseMs)), utc(startedAt)],
        ),
      );
      const byId = new Map(rows.map((row) => [row.id, { ...row, startedAt }]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );

  type Finish = { attempt: StartedAttempt; result: AttemptResult; verdict: AttemptVerdict };
  const finishes = new DataLoader<Finish, true>(
    async (batch) => {
      const rows = batch.map(({ attempt, result, verdict }) => ({
        attempt_id: attempt.attemptId,
        event_id: attempt.id,
        duration_ms: result.durationMs,
        outcome: result.outcome,
        status_code: result.statusCode ?? null,
        error: result.error ?? null,
        response_excerpt: result.responseExcerpt ?? null,
        state: verdict.state,
        last_error: result.outcome === "DELIVERED" ? null : (result.error ?? `HTTP ${result.statusCode}`),
        delivered_at: verdict.state === "DELIVERED" ? utc(new Date(attempt.startedAt.getTime() + result.durationMs)) : null,
        next_attempt_at: verdict.nextAttemptAt ? utc(verdict.nextAttemptAt) : null,
      }));
      await pool.query(
        prepared(
          `WITH done AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS d(
             attempt_id uuid, event_id uuid, duration_ms int, outcome text, status_code int, error text,
             response_excerpt text, state text, last_error text, delivered_at timestamp(3), next_attempt_at timestamp(3))),
         attempt AS (
           UPDATE webhook_attempt a SET duration_ms = d.duration_ms, outcome = d.outcome::"WebhookAttemptOutcome",
             status_code = d.status_code, error = d.error, response_excerpt = d.response_excerpt
           FROM done d WHERE a.id = d.attempt_id)
         UPDATE webhook_event e SET state = d.state::"WebhookEventState", lease_until = NULL, last_error = d.last_error,
           delivered_at = d.delivered_at, next_attempt_at = COALESCE(d.next_attempt_at, e.next_attempt_at), updated_at = now()
         FROM done d WHERE e.id = d.event_id`,
          [JSON.stringify(rows)],
        ),
      );
      return batch.map(() => true as const);
    },
    { cache: false, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );

  return {
    /** Takes a pending event for one attempt (null: it is no longer pending, or another attempt holds it) and records the attempt as IN_FLIGHT. */
    start: (eventId: string) => starts.load(eventId),
    /** Records what an attempt came to and moves its event to `verdict`. */
    finish: (attempt: StartedAttempt, result: AttemptResult, verdict: AttemptVerdict) =>
      finishes.load({ attempt, result, verdict }).then(() => undefined),
  };
}

export type Outbox = ReturnType<typeof openOutbox>;
