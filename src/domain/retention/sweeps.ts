import { setTimeout as sleep } from "node:timers/promises";
import { inTransaction, pool, prepared, toUtcText as utc } from "../../db.js";
import { int } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";

/**
 * Retention: what the service deletes, and when. Each sweep deletes in batches of `batchSize` rows,
 * one short statement (and transaction) per batch, resting between batches, so no sweep holds locks
 * for long, bloats one transaction, or keeps the API waiting; it stops at the first short batch.
 *
 * - Idempotency keys once past their expiresAt (24 hours after their call, Stripe's rule).
 * - Webhook deliveries (to notifyUrls and to endpoints) that are finished (DELIVERED, EXHAUSTED,
 *   REFUSED or HELD) and unchanged for WEBHOOK_RETENTION, with their attempts; a PENDING delivery
 *   is never deleted, however old.
 * - Events (the events API's) older than WEBHOOK_RETENTION once no delivery of theirs is left.
 * - Destinations' health (src/domain/deliveries/destination.ts) unchanged for
 *   WEBHOOK_RETENTION with no pending delivery: a destination seen again starts as a new one.
 * - Activity (the audit trail) older than ACTIVITY_RETENTION, only when an operator sets it. The
 *   table discards every other delete (a rule, prisma/migrations/…_retention): this sweep's
 *   transactions say what they are with `SET LOCAL payreq.retention = 'on'`.
 */
export interface RetentionSettings {
  webhookRetentionMs: number;
  /** Null: the audit trail is kept. */
  activityRetentionMs: number | null;
  batchSize: number;
}

/** Rows each sweep deleted, by table. */
export type SweepCounts = Record<
  "idempotency_key" | "webhook_event" | "webhook_attempt" | "event" | "webhook_destination" | "activity",
  number
>;

const EXPIRED_IDEMPOTENCY_KEYS = `
  DELETE FROM idempotency_key WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM idempotency_key WHERE expires_at < $1::timestamp(3) LIMIT $2))`;

// Attempts go with their event (ON DELETE CASCADE); the statement counts them first.
const FINISHED_WEBHOOK_EVENTS = statement(
  `
  WITH doomed AS (
    SELECT id FROM webhook_event WHERE state <> 'PENDING' AND updated_at < $1::timestamp(3) LIMIT $2 FOR UPDATE SKIP LOCKED
  ), attempts AS (
    SELECT count(*)::int AS n FROM webhook_attempt WHERE event_id IN (SELECT id FROM doomed)
  ), deleted AS (
    DELETE FROM webhook_event WHERE id IN (SELECT id FROM doomed) RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM deleted) AS events, (SELECT n FROM attempts) AS attempts`,
  { events: int(), attempts: int() },
);

const OLD_EVENTS = `
  DELETE FROM event WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM event e WHERE created_at < $1::timestamp(3)
      AND NOT EXISTS (SELECT 1 FROM webhook_event w WHERE w.event_id = e.id) LIMIT $2))`;

const IDLE_DESTINATIONS = `
  DELETE FROM webhook_destination WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM webhook_destination d WHERE updated_at < $1::timestamp(3)
      AND NOT EXISTS (SELECT 1 FROM webhook_event w WHERE w.destination = d.id AND w.state = 'PENDING') LIMIT $2))`;

const OLD_ACTIVITY = `
  DELETE FROM activity WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM activity WHERE created_at < $1::timestamp(3) LIMIT $2))`;

/**
 * Runs `batch` until it deletes fewer than `batchSize` rows; the total it deleted. After each full
 * batch it rests as long as the batch took, so a sweep uses at most half of one database
 * connection's time and calls keep their latency while a backlog of millions is worked off.
 */
async function inBatches(batchSize: number, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const deleted = await batch();
    total += deleted;
    if (deleted < batchSize) return total;
    await sleep(performance.now() - started);
  }
}

/** Every sweep, as of `now` (the worker's clock; tests give their own). */
export async function sweepExpiredData(now: Date, settings: RetentionSettings): Promise<SweepCounts> {
  const { batchSize } = settings;
  const counts: SweepCounts = {
    idempotency_key: 0,
    webhook_event: 0,
    webhook_attempt: 0,
    event: 0,
    webhook_destination: 0,
    activity: 0,
  };

  counts.idempotency_key = await inBatches(
    batchSize,
    async () => (await pool.query(prepared(EXPIRED_IDEMPOTENCY_KEYS, [utc(now), batchSize]))).rowCount ?? 0,
  );

  const webhookCutoff = utc(new Date(now.getTime() - settings.webhookRetentionMs));
  counts.webhook_event = await inBatches(batchSize, async () => {
    const { events, attempts } = (await queryRow(pool, FINISHED_WEBHOOK_EVENTS, [webhookCutoff, batchSize]))!;
    counts.webhook_attempt += attempts;
    return events;
  });
  counts.event = await inBatches(
    batchSize,
    async () => (await pool.query(prepared(OLD_EVENTS, [webhookCutoff, batchSize]))).rowCount ?? 0,
  );
  counts.webhook_destination = await inBatches(
    batchSize,
    async () => (await pool.query(prepared(IDLE_DESTINATIONS, [webhookCutoff, batchSize]))).rowCount ?? 0,
  );

  if (settings.activityRetentionMs !== null) {
    const activityCutoff = utc(new Date(now.getTime() - settings.activityRetentionMs));
    counts.activity = await inBatches(batchSize, () =>
      inTransaction(async (sql) => {
        await sql.query("SET LOCAL payreq.retention = 'on'");
        return (await sql.query(prepared(OLD_ACTIVITY, [activityCutoff, batchSize]))).rowCount ?? 0;
      }),
    );
  }
  return counts;
}
