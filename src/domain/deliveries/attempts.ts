import { setTimeout as sleep } from "node:timers/promises";
import DataLoader from "dataloader";
import { isDatabaseUnavailable } from "../../connection-errors.js";
import { inTransaction, pool, toUtcText as utc } from "../../db.js";
import { queryRows, statement } from "../../sql/statements.js";
import { webhookAttempts, webhookEvents } from "../../sql/tables.js";
import type { AttemptVerdict } from "../webhooks/retry-schedule.js";
import type { WebhookAttemptOutcome, WebhookEvent } from "../../generated/prisma/client.js";
import type { DueAttempt } from "./claim.js";
import { QUICK_MS } from "./destination.js";
import { HOLD } from "./states.js";

/**
 * Attempts: a claimed delivery taken for its attempt, and the attempt's outcome recorded with what
 * follows it. PostgreSQL owns every delivery's schedule: its state, the attempts made, when the next
 * one is due, whether it was given a job (claim.ts), and its destination's health. Attempts are
 * started and finished in batches: one statement for all the deliveries that reach the same step
 * within a couple of milliseconds.
 */

/** How long the deliveries reaching one step wait for others to join their statement. */
const BATCH_WINDOW_MS = 2;

/** An event taken for one attempt, whose attempt row is already written (IN_FLIGHT). */
export type StartedAttempt = Pick<
  WebhookEvent,
  | "id"
  | "url"
  | "payload"
  | "attempts"
  | "attemptLimit"
  | "correlationId"
  | "traceparent"
  | "endpointId"
  | "eventId"
  | "type"
  | "createdAt"
  | "merchantId"
  | "destination"
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

/**
 * Starts attempts, batched: takes each event for its attempt and records the attempt IN_FLIGHT before
 * anything is sent (a worker killed mid-delivery leaves it so). An event is taken only for the attempt
 * that comes next and only while no lease holds it, so a second job for the same attempt (given
 * again while the first waited out a Redis outage, or given back by Redis) finds it taken, or made,
 * and sends nothing. A delivery whose endpoint is disabled is HELD instead (a test event excepted),
 * and one whose endpoint is enabled goes to the endpoint's URL as it is now. The statements name
 * their rows by id (`e.id = ANY(…)`) besides joining them, so no plan walks every pending delivery
 * once per attempt of the batch (claim.ts says why).
 */
function startsAttempts(leaseMs: number) {
  return new DataLoader<DueAttempt, StartedAttempt | null>(
    async (due) => {
      const startedAt = new Date();
      const rows = await queryRows(pool, START_ATTEMPTS, [
        due.map((d) => d.eventId),
        due.map((d) => d.attempt),
        utc(new Date(startedAt.getTime() + leaseMs)),
        utc(startedAt),
      ]);
      // The same attempt asked for twice in one batch is made once: only the first ask gets it.
      const byId = new Map(rows.map((row) => [row.id, { ...row, startedAt }]));
      return due.map(({ eventId }) => {
        const started = byId.get(eventId) ?? null;
        byId.delete(eventId);
        return started;
      });
    },
    { cache: false, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );
}

const START_ATTEMPTS = statement(
  `WITH due AS (SELECT * FROM unnest($1::uuid[], $2::int[]) AS d(id, attempt)),
         held AS (
           UPDATE webhook_event e SET ${HOLD}, updated_at = $4
           FROM due d, webhook_endpoint ep
           WHERE e.id = ANY($1::uuid[]) AND e.id = d.id AND ep.id = e.endpoint_id AND NOT ep.enabled AND e.type <> 'PING' AND e.state = 'PENDING'
             AND (e.lease_until IS NULL OR e.lease_until <= $4)),
         claimed AS (
           UPDATE webhook_event e SET attempts = e.attempts + 1, lease_until = $3,
             url = COALESCE((SELECT ep.url FROM webhook_endpoint ep WHERE ep.id = e.endpoint_id), e.url)
           FROM due d
           WHERE e.id = ANY($1::uuid[]) AND e.id = d.id AND e.attempts = d.attempt - 1 AND e.state = 'PENDING'
             AND (e.lease_until IS NULL OR e.lease_until <= $4)
             AND NOT EXISTS (SELECT 1 FROM webhook_endpoint ep WHERE ep.id = e.endpoint_id AND NOT ep.enabled AND e.type <> 'PING')
           RETURNING e.*),
         attempt AS (
           INSERT INTO webhook_attempt (id, event_id, endpoint_id, number, started_at, outcome)
           SELECT gen_random_uuid(), id, endpoint_id, attempts, $4, 'IN_FLIGHT' FROM claimed
           RETURNING id, event_id)
         SELECT c.id, c.url, c.payload, c.attempts, c.attempt_limit AS "attemptLimit",
                c.correlation_id AS "correlationId", c.traceparent, c.endpoint_id AS "endpointId",
                c.event_id AS "eventId", c.type, c.created_at AS "createdAt", c.merchant_id AS "merchantId",
                c.destination, a.id AS "attemptId"
         FROM claimed c JOIN attempt a ON a.event_id = c.id`,
  {
    ...webhookEvents.pick(
      "id",
      "url",
      "payload",
      "attempts",
      "attemptLimit",
      "correlationId",
      "traceparent",
      "endpointId",
      "eventId",
      "type",
      "createdAt",
      "merchantId",
      "destination",
    ).columns,
    attemptId: webhookAttempts.columns.id,
  },
);

type Finish = { attempt: StartedAttempt; result: AttemptResult; verdict: AttemptVerdict };

/**
 * Finishes attempts, batched: records what each came to and moves its event on. An event that stays
 * PENDING has no job until its next attempt is due. A batch with attempts at endpoints first moves
 * those endpoints' health (ENDPOINT_HEALTH), in the same transaction: endpoints are locked before
 * deliveries, the order every statement that locks both keeps (an endpoint's update, deletion and
 * recovery), so none of them deadlocks with a batch.
 */
function finishesAttempts(disableAfterMs: number) {
  return new DataLoader<Finish, true>(
    async (batch) => {
      const rows = batch.map(({ attempt, result, verdict }) => ({
        attempt_id: attempt.attemptId,
        event_id: attempt.id,
        number: attempt.attempts,
        endpoint_id: attempt.endpointId,
        merchant_id: attempt.merchantId,
        destination: attempt.destination,
        started_at: utc(attempt.startedAt),
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
      const done = JSON.stringify(rows);
      const toEndpoints = rows.some((row) => row.endpoint_id !== null);
      // The attempts were made: a connection lost meanwhile (a reset, a failover) must not leave them
      // unrecorded, to be made again once their leases lapse.
      await whileDatabaseReturns(async () => {
        if (!toEndpoints) return queryRows(pool, FINISH_ATTEMPTS, [done]);
        const now = new Date();
        return inTransaction(async (sql) => {
          await queryRows(sql, ENDPOINT_HEALTH, [done, utc(now), utc(new Date(now.getTime() - disableAfterMs))]);
          await queryRows(sql, FINISH_ATTEMPTS, [done]);
        });
      });
      return batch.map(() => true as const);
    },
    { cache: false, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );
}

/** Tries `record` again while PostgreSQL cannot be reached, for about three seconds. */
async function whileDatabaseReturns<T>(record: () => Promise<T>): Promise<T> {
  for (let wait = 100; ; wait *= 2) {
    try {
      return await record();
    } catch (err) {
      if (wait > 1_600 || !isDatabaseUnavailable(err)) throw err;
      await sleep(wait);
    }
  }
}

/** The finished attempts of a batch ($1), as rows. */
const DONE = `done AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS d(
      attempt_id uuid, event_id uuid, number int, endpoint_id uuid, merchant_id uuid, destination uuid, started_at timestamp(3), duration_ms int, outcome text,
      status_code int, error text, response_excerpt text, state text, last_error text, delivered_at timestamp(3),
      next_attempt_at timestamp(3)))`;

/**
 * Records each attempt's outcome and moves its event on, and its destination's health
 * (destination.ts): the attempt, the event and the destination in one statement. A destination
 * where any attempt of the batch was delivered has no failures in a row; one where all failed has
 * that many more. Its row is written only when that changes, or whether it is quick, in id order: a
 * destination that keeps delivering is not a row every batch waits for. An event moves on only while
 * this attempt holds it: recorded again (after a lost answer), or after its lease lapsed and another
 * attempt took it, the statement leaves it as it is.
 */
const FINISH_ATTEMPTS = statement(
  `WITH ${DONE},
  by_destination AS (
    SELECT destination, merchant_id, bool_or(outcome = 'DELIVERED') AS delivered,
           bool_and(outcome = 'DELIVERED' AND duration_ms < ${QUICK_MS}) AS quick,
           count(*) FILTER (WHERE outcome <> 'DELIVERED')::int AS failed, max(started_at) AS at
    FROM done GROUP BY destination, merchant_id),
  health AS (
    INSERT INTO webhook_destination AS h (id, merchant_id, failures, quick, updated_at)
    SELECT b.destination, b.merchant_id, CASE WHEN b.delivered THEN 0 ELSE b.failed END, b.quick, b.at
    FROM by_destination b LEFT JOIN webhook_destination o ON o.id = b.destination
    WHERE o.id IS NULL OR NOT b.delivered OR o.failures > 0 OR o.quick <> b.quick
    ORDER BY b.destination
    ON CONFLICT (id) DO UPDATE SET
      failures = CASE WHEN excluded.failures = 0 THEN 0 ELSE h.failures + excluded.failures END,
      quick = excluded.quick, updated_at = excluded.updated_at),
  attempt AS (
    UPDATE webhook_attempt a SET duration_ms = d.duration_ms, outcome = d.outcome::"WebhookAttemptOutcome",
      status_code = d.status_code, error = d.error, response_excerpt = d.response_excerpt
    FROM done d WHERE a.id = ANY(ARRAY(SELECT attempt_id FROM done)) AND a.id = d.attempt_id)
  UPDATE webhook_event e SET state = d.state::"WebhookEventState", lease_until = NULL, enqueued_at = NULL,
    last_error = d.last_error, delivered_at = d.delivered_at,
    next_attempt_at = COALESCE(d.next_attempt_at, e.next_attempt_at), updated_at = now()
  FROM done d WHERE e.id = ANY(ARRAY(SELECT event_id FROM done)) AND e.id = d.event_id AND e.attempts = d.number AND e.lease_until IS NOT NULL`,
  {},
);

/** Of an endpoint `ep` and its attempts `c` just finished: every one failed, and it has failed since before $3. */
const FAILING_TOO_LONG = "(NOT c.delivered AND COALESCE(ep.failing_since, c.first_failed_at) <= $3::timestamp(3))";

/**
 * Moves the health of the batch's endpoints ($1) as of $2: since when each has failed every attempt,
 * and, past the limit ($3, that long before $2), disabled, its waiting deliveries HELD. Only an
 * endpoint whose state changes is written (it starts or stops failing, or is disabled), its row
 * locked in id order and FOR NO KEY UPDATE, which a payment's new delivery (its foreign key's KEY
 * SHARE) does not wait for: in the steady state (delivering, or failing for less than the limit) no
 * batch touches an endpoint, so batches do not queue on a busy endpoint's row.
 */
const ENDPOINT_HEALTH = statement(
  `WITH ${DONE},
  by_endpoint AS (
    SELECT endpoint_id, bool_or(outcome = 'DELIVERED') AS delivered, min(started_at) AS first_failed_at
    FROM done WHERE endpoint_id IS NOT NULL GROUP BY endpoint_id),
  changing AS (
    SELECT ep.id, h.delivered, h.first_failed_at
    FROM webhook_endpoint ep JOIN by_endpoint h ON h.endpoint_id = ep.id
    WHERE CASE WHEN h.delivered THEN ep.failing_since IS NOT NULL
               ELSE ep.failing_since IS NULL OR (ep.enabled AND ep.failing_since <= $3::timestamp(3)) END
    ORDER BY ep.id FOR NO KEY UPDATE OF ep),
  health AS (
    UPDATE webhook_endpoint ep SET
      failing_since = CASE WHEN c.delivered THEN NULL ELSE COALESCE(ep.failing_since, c.first_failed_at) END,
      enabled = ep.enabled AND NOT ${FAILING_TOO_LONG},
      disabled_at = CASE WHEN ep.enabled AND ${FAILING_TOO_LONG} THEN $2::timestamp(3) ELSE ep.disabled_at END,
      disabled_reason = CASE WHEN ep.enabled AND ${FAILING_TOO_LONG}
        THEN 'every attempt failed since ' || to_char(COALESCE(ep.failing_since, c.first_failed_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        ELSE ep.disabled_reason END,
      updated_at = $2::timestamp(3)
    FROM changing c
    WHERE ep.id = c.id
    RETURNING ep.id, NOT ep.enabled AND ep.disabled_at = $2::timestamp(3) AS disabled_now)
  UPDATE webhook_event e SET ${HOLD}, updated_at = $2::timestamp(3)
  FROM health h
  WHERE h.disabled_now AND e.endpoint_id = h.id AND e.state = 'PENDING' AND e.type <> 'PING'
    AND e.id NOT IN (SELECT event_id FROM done) AND (e.lease_until IS NULL OR e.lease_until <= $2::timestamp(3))`,
  {},
);

/**
 * The statements of an attempt; `leaseMs` is how long a started attempt holds its event,
 * `disableAfterMs` how long an endpoint may fail every attempt before it is disabled.
 */
export function openOutbox(leaseMs: number, disableAfterMs: number) {
  const starts = startsAttempts(leaseMs);
  const finishes = finishesAttempts(disableAfterMs);
  return {
    /** Takes an event for its attempt `attempt` and records it IN_FLIGHT; null: that attempt is not the event's next, or another holds the event. */
    start: (due: DueAttempt) => starts.load(due),
    /** Records what an attempt came to and moves its event to `verdict`. */
    finish: (attempt: StartedAttempt, result: AttemptResult, verdict: AttemptVerdict) =>
      finishes.load({ attempt, result, verdict }).then(() => undefined),
  };
}

export type Outbox = ReturnType<typeof openOutbox>;
