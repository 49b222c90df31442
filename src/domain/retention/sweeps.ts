import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { database } from "../../db.js";
import { amongIds } from "../deliveries/claim.js";
import { deleteFinishedDeliveries, deleteIdleDestinations } from "../deliveries/retention.js";

/**
 * Retention: what the service deletes, and when. Each sweep deletes in batches of `batchSize` rows,
 * one short statement (and transaction) per batch, resting between batches, so no sweep holds locks
 * for long, bloats one transaction, or keeps the API waiting; it stops at the first short batch.
 *
 * - Idempotency keys once past their expiresAt (24 hours after their call, Stripe's rule).
 * - Webhook deliveries (to notifyUrls and to endpoints) that are finished (DELIVERED, EXHAUSTED,
 *   REFUSED or HELD) and unchanged for WEBHOOK_RETENTION, with their attempts; a PENDING delivery
 *   is never deleted, however old (src/domain/deliveries/retention.ts).
 * - Events (the events API's) older than WEBHOOK_RETENTION once no delivery of theirs is left.
 * - Destinations' health (src/domain/deliveries/destination.ts) unchanged for
 *   WEBHOOK_RETENTION with no pending delivery: a destination seen again starts as a new one
 *   (src/domain/deliveries/retention.ts).
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

/**
 * Rows each sweep deleted, by table. The deliveries' (table `delivery`) keep their former name,
 * `webhook_event`: it is the `table` label of payreq_retention_deleted_rows_total, which dashboards read.
 */
export type SweepCounts = Record<
  "idempotency_key" | "webhook_event" | "webhook_attempt" | "event" | "webhook_destination" | "activity",
  number
>;

/** A row's ctid, by which a batch's rows are deleted (amongIds). */
const ctid = sql`ctid`.as("ctid");

/** Deletes up to `batchSize` idempotency keys expired before `now`. */
async function deleteExpiredIdempotencyKeys(now: Date, batchSize: number): Promise<number> {
  const { numDeletedRows } = await database
    .deleteFrom("idempotencyKey")
    .where(amongIds("ctid", database.selectFrom("idempotencyKey").select(ctid).where("expiresAt", "<", now).limit(batchSize)))
    .executeTakeFirstOrThrow();
  return Number(numDeletedRows);
}

/** Deletes up to `batchSize` events made before `cutoff` of which no delivery is left. */
async function deleteOldEvents(cutoff: Date, batchSize: number): Promise<number> {
  const { numDeletedRows } = await database
    .deleteFrom("event")
    .where(
      amongIds(
        "ctid",
        database
          .selectFrom("event as e")
          .select(ctid)
          .where("e.createdAt", "<", cutoff)
          .where((eb) =>
            eb.not(eb.exists(eb.selectFrom("delivery as w").select(sql.lit(1).as("one")).whereRef("w.eventId", "=", "e.id"))),
          )
          .limit(batchSize),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(numDeletedRows);
}

/**
 * Deletes up to `batchSize` activities made before `cutoff`, in a transaction that says it is this
 * sweep's (the only delete the table accepts).
 */
async function deleteOldActivity(cutoff: Date, batchSize: number): Promise<number> {
  return database.transaction().execute(async (trx) => {
    await sql`SET LOCAL payreq.retention = 'on'`.execute(trx);
    const { numDeletedRows } = await trx
      .deleteFrom("activity")
      .where(amongIds("ctid", trx.selectFrom("activity").select(ctid).where("createdAt", "<", cutoff).limit(batchSize)))
      .executeTakeFirstOrThrow();
    return Number(numDeletedRows);
  });
}

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

  counts.idempotency_key = await inBatches(batchSize, () => deleteExpiredIdempotencyKeys(now, batchSize));

  const webhookCutoff = new Date(now.getTime() - settings.webhookRetentionMs);
  counts.webhook_event = await inBatches(batchSize, async () => {
    const { deliveries, attempts } = await deleteFinishedDeliveries(webhookCutoff, batchSize);
    counts.webhook_attempt += attempts;
    return deliveries;
  });
  counts.event = await inBatches(batchSize, () => deleteOldEvents(webhookCutoff, batchSize));
  counts.webhook_destination = await inBatches(batchSize, () => deleteIdleDestinations(webhookCutoff, batchSize));

  if (settings.activityRetentionMs !== null) {
    const activityCutoff = new Date(now.getTime() - settings.activityRetentionMs);
    counts.activity = await inBatches(batchSize, () => deleteOldActivity(activityCutoff, batchSize));
  }
  return counts;
}
