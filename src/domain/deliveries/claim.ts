import { inTransaction, pool, toUtcText as utc } from "../../db.js";
import { int, text } from "../../sql/columns.js";
import { queryRow, queryRows, statement } from "../../sql/statements.js";
import { webhookEvents } from "../../sql/tables.js";
import { destinationRoom, isSlow } from "./destination.js";

/**
 * Claims: which waiting deliveries get the worker's free attempts. A claim marks the rows it takes
 * as given a job (`enqueued_at`) and the worker hands them to its queue; they count as in flight
 * until their attempt is recorded. Everything a claim decides is decided here, in PostgreSQL, under
 * one lock per lane, so several workers share out the same slots as one would.
 *
 * Two lanes, each with its own slots: the deliveries of events (to notifyUrls and endpoints), and
 * test events (pings), so that a ping is attempted within its wait whatever the backlog.
 *
 * Events' deliveries are shared by water-filling: the next free attempt goes to the merchant with
 * the fewest attempts in flight (the oldest waiting delivery first among equals), and within a
 * merchant to its destination with the fewest, each destination capped by its health, and a
 * merchant's slow destinations together by half the slots (destination.ts). A merchant alone whose
 * destinations answer gets every slot; one that has more in flight than another gets none while the
 * other waits. A delivery that waits for a turn spends no attempt.
 */

export type Lane = "deliveries" | "tests";

/** A delivery's next attempt: the job that carries it makes attempt `attempt` (counted from 1) or nothing. */
export interface DueAttempt {
  eventId: string;
  attempt: number;
}

export interface ClaimedAttempt extends DueAttempt {
  destination: string;
}

/** A worker's slots for test events, and how many of them one merchant's may hold: a merchant's pings never fill the lane. */
export const TEST_EVENT_SLOTS = 8;
export const TESTS_PER_MERCHANT = 2;

const claimed = { eventId: webhookEvents.columns.id, attempt: int(), destination: webhookEvents.columns.destination };

/** A waiting delivery of an event (not a test event), as the partial indexes of the claim read it. */
const WAITING = "state = 'PENDING' AND enqueued_at IS NULL AND type IS DISTINCT FROM 'PING'";

/**
 * Up to $2 due deliveries of events as of $1, of which a merchant's slow destinations may hold $3 in
 * all. `waiting` walks the destinations that have waiting deliveries (a loose scan of the waiting
 * index: one probe per destination, however long its backlog); `room` is how many more attempts
 * each may take; `due` takes as many of each one's due deliveries as it has room for, oldest first,
 * each with its place in its destination's line; `allowed` keeps those within the merchant's slow
 * budget; `turns` orders them for water-filling, merchant by merchant. The rows taken are looked up
 * by id (`= ANY(ARRAY(…))`, the primary key's index) whatever the planner believes of how many are
 * pending: with statistics taken while a backlog was HELD, a join here compared every pending row
 * with every candidate, a second per claim at 6,000 deliveries.
 */
const CLAIM_DELIVERIES = statement(
  `WITH RECURSIVE waiting(id) AS (
       (SELECT destination FROM webhook_event WHERE ${WAITING} ORDER BY destination LIMIT 1)
     UNION ALL
       SELECT (SELECT destination FROM webhook_event WHERE ${WAITING} AND destination > w.id ORDER BY destination LIMIT 1)
       FROM waiting w WHERE w.id IS NOT NULL),
   in_flight AS (
     SELECT f.destination, f.merchant_id, f.n, ${isSlow} AS slow
     FROM (SELECT destination, merchant_id, count(*)::int AS n FROM webhook_event
           WHERE state = 'PENDING' AND enqueued_at IS NOT NULL AND type IS DISTINCT FROM 'PING'
           GROUP BY destination, merchant_id) f
     LEFT JOIN webhook_destination h ON h.id = f.destination),
   merchant_busy AS (
     SELECT merchant_id, sum(n)::int AS n, (sum(n) FILTER (WHERE slow))::int AS slow FROM in_flight GROUP BY merchant_id),
   room AS (
     SELECT w.id, ${isSlow} AS slow, COALESCE(f.n, 0) AS busy, ${destinationRoom("COALESCE(f.n, 0)", "$2")} AS room
     FROM waiting w
     LEFT JOIN webhook_destination h ON h.id = w.id
     LEFT JOIN (SELECT destination, sum(n)::int AS n FROM in_flight GROUP BY destination) f ON f.destination = w.id
     WHERE w.id IS NOT NULL),
   due AS (
     SELECT d.id, d.merchant_id, d.next_attempt_at, r.slow,
            r.busy + row_number() OVER (PARTITION BY r.id ORDER BY d.next_attempt_at, d.id) AS place
     FROM room r CROSS JOIN LATERAL (
       SELECT e.id, e.merchant_id, e.next_attempt_at FROM webhook_event e
       WHERE e.destination = r.id AND e.state = 'PENDING' AND e.enqueued_at IS NULL AND e.type IS DISTINCT FROM 'PING'
         AND e.next_attempt_at <= $1 AND (e.lease_until IS NULL OR e.lease_until < $1)
       ORDER BY e.next_attempt_at LIMIT LEAST(r.room, $2)) d
     WHERE r.room > 0),
   allowed AS (
     SELECT d.*, COALESCE(m.n, 0) AS merchant_busy
     FROM (SELECT due.*, row_number() OVER (PARTITION BY merchant_id, slow ORDER BY place, next_attempt_at, id) AS nth FROM due) d
     LEFT JOIN merchant_busy m ON m.merchant_id = d.merchant_id
     WHERE NOT d.slow OR COALESCE(m.slow, 0) + d.nth <= $3),
   turns AS (
     SELECT id, next_attempt_at,
            merchant_busy + row_number() OVER (PARTITION BY merchant_id ORDER BY place, next_attempt_at, id) AS turn
     FROM allowed),
   picked AS (
     SELECT e.id FROM webhook_event e
     WHERE e.id = ANY(ARRAY(SELECT id FROM turns ORDER BY turn, next_attempt_at, id LIMIT $2))
       AND e.state = 'PENDING' AND e.enqueued_at IS NULL
     FOR UPDATE SKIP LOCKED)
   UPDATE webhook_event e SET enqueued_at = $1 WHERE e.id = ANY(ARRAY(SELECT id FROM picked))
   RETURNING e.id AS "eventId", e.attempts + 1 AS attempt, e.destination`,
  claimed,
);

/**
 * Up to $2 due test events as of $1: at most one in flight per endpoint and TESTS_PER_MERCHANT ($3)
 * per merchant, the merchant with the fewest in flight first.
 */
const CLAIM_TESTS = statement(
  `WITH in_flight AS (
     SELECT destination, merchant_id FROM webhook_event WHERE state = 'PENDING' AND enqueued_at IS NOT NULL AND type = 'PING'),
   due AS (
     SELECT DISTINCT ON (e.destination) e.id, e.merchant_id, e.next_attempt_at FROM webhook_event e
     WHERE e.state = 'PENDING' AND e.type = 'PING' AND e.enqueued_at IS NULL AND e.next_attempt_at <= $1
       AND e.destination NOT IN (SELECT destination FROM in_flight)
     ORDER BY e.destination, e.next_attempt_at, e.id),
   turns AS (
     SELECT d.id, d.next_attempt_at,
            (SELECT count(*) FROM in_flight f WHERE f.merchant_id = d.merchant_id)
              + row_number() OVER (PARTITION BY d.merchant_id ORDER BY d.next_attempt_at, d.id) AS turn
     FROM due d),
   picked AS (
     SELECT e.id FROM webhook_event e
     WHERE e.id = ANY(ARRAY(SELECT id FROM turns WHERE turn <= $3 ORDER BY turn, next_attempt_at, id LIMIT $2))
       AND e.state = 'PENDING' AND e.enqueued_at IS NULL
     FOR UPDATE SKIP LOCKED)
   UPDATE webhook_event e SET enqueued_at = $1 WHERE e.id = ANY(ARRAY(SELECT id FROM picked))
   RETURNING e.id AS "eventId", e.attempts + 1 AS attempt, e.destination`,
  claimed,
);

/** One lock per lane: a claim counts what is in flight, which another claim at the same time would not see. */
const LANE_LOCK = { deliveries: 7_305_001, tests: 7_305_002 } as const;
const LOCK = statement("SELECT pg_advisory_xact_lock($1::bigint)::text AS locked", { locked: text() });

/**
 * Claims up to `free` due deliveries of the lane as of `now` (see above), for a worker with `slots`
 * in the lane, half of which a merchant's slow destinations may hold; none when `free` is 0.
 */
export async function claimDue(
  lane: Lane,
  { free, slots }: { free: number; slots: number },
  now: Date,
): Promise<ClaimedAttempt[]> {
  if (free <= 0) return [];
  return inTransaction(async (sql) => {
    await queryRows(sql, LOCK, [LANE_LOCK[lane]]);
    return lane === "deliveries"
      ? queryRows(sql, CLAIM_DELIVERIES, [utc(now), free, Math.max(1, Math.floor(slots / 2))])
      : queryRows(sql, CLAIM_TESTS, [utc(now), free, TESTS_PER_MERCHANT]);
  });
}

/**
 * Takes back the claims whose job was lost (given before `lostBefore` and never run: Redis lost it,
 * its hand-over failed, or its worker died), so they wait for a turn again; the attempt of one whose
 * worker died mid-delivery counts. Returns how many.
 */
export async function releaseLostClaims(lostBefore: Date, now: Date): Promise<number> {
  return (await queryRow(pool, RELEASE_LOST, [utc(lostBefore), utc(now)]))!.released;
}

const RELEASE_LOST = statement(
  `WITH released AS (
     UPDATE webhook_event SET enqueued_at = NULL
     WHERE state = 'PENDING' AND enqueued_at < $1 AND (lease_until IS NULL OR lease_until < $2)
     RETURNING 1)
   SELECT count(*)::int AS released FROM released`,
  { released: int() },
);

/**
 * When the earliest delivery that waits for its time comes due, as of the `now` of the claims just
 * made: one that came due since then is already due (a time not after the clock's now), so nothing
 * falls between a claim and the next. Null when none waits for its time.
 */
export async function nextDueAt(now: Date): Promise<Date | null> {
  return (await queryRow(pool, NEXT_DUE_AT, [utc(now)]))?.at ?? null;
}

const NEXT_DUE_AT = statement(
  `SELECT next_attempt_at AS at FROM webhook_event
   WHERE state = 'PENDING' AND enqueued_at IS NULL AND next_attempt_at > $1
   ORDER BY next_attempt_at LIMIT 1`,
  { at: webhookEvents.columns.nextAttemptAt },
);
