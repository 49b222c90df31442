/**
 * The takings roll-up (tables takings_bin and takings_rollup): each merchant's requests and
 * completed transactions summed into 15-minute bins of UTC, which statistics read for the closed
 * part of a range (merchant-stats.ts). Every zone's offset is a multiple of 15 minutes, so a bin
 * falls in one local hour and one local day of any zone.
 *
 * A merchant's bins are written once, in order: one statement sums what was made in
 * [through, until), writes the histogram of each UTC day it completes (takings_day, for the median
 * over long ranges), and moves `through` to `until`. `until` stays five minutes behind the clock and
 * a minute before the start of every open transaction, so no row made before it can still commit. A row
 * written later with an earlier time (an import of old payments) is not in the bins:
 * `rebuildTakings` sums the merchant's again.
 */
import { sql, type Kysely, type RawBuilder } from "kysely";
import { z } from "zod";
import { database } from "../../db.js";
import type { DB } from "../../generated/kysely/database.js";
import { notFound, requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { id, parseInput } from "../validation.js";

/** A bin's length; bins start at multiples of it from the epoch. */
export const BIN_MS = 15 * 60_000;

/** The bin of a `timestamp` column (UTC without a zone). */
const binOf = (column: string): RawBuilder<Date> =>
  sql<Date>`date_bin('15 minutes'::interval, ${sql.ref(column)}, timestamp '1970-01-01')`;

/** The UTC day of a `timestamp`. */
const dayOf = (at: RawBuilder<unknown>): RawBuilder<Date> => sql<Date>`date_trunc('day', ${at})`;

/** Seconds from a request's creation to its payment, whole: in the bins and in the rows after them alike. */
export const secondsToPay = (paidAt: string, createdAt: string): RawBuilder<number> =>
  sql<number>`round(extract(epoch FROM ${sql.ref(paidAt)} - ${sql.ref(createdAt)}))::int`;

/**
 * Where the roll-up may go up to now: the start of the bin five minutes ago, or of the bin a minute
 * before the oldest open transaction began, whichever is earlier. A request or transaction takes
 * its time from the API's clock just before its transaction begins (the minute covers that and the
 * clocks' skew), so every row before this bound has committed.
 */
async function rollUpBound(): Promise<Date> {
  const { until } = await database
    .selectFrom(sql`pg_stat_activity`.as("a"))
    .where(sql<boolean>`a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL`)
    .select(
      sql<Date>`date_bin('15 minutes'::interval,
        least(now() - interval '5 minutes', coalesce(min(a.xact_start), now()) - interval '1 minute') AT TIME ZONE 'UTC',
        timestamp '1970-01-01')`.as("until"),
    )
    .executeTakeFirstOrThrow();
  return until;
}

/** The tables a roll-up's statement adds: the merchants it rolls up, and their requests' and transactions' bins. */
type Rolling = DB & {
  due: { merchantId: string; through: Date };
  made: { merchantId: string; start: Date; asset: string; created: number };
  moved: {
    merchantId: string;
    start: Date;
    asset: string;
    paid: number;
    paidAmount: bigint;
    refundedAmount: bigint;
    secondsToPay: number[];
  };
};

/** Up to `batchSize` merchants (`merchantId` only, when given) whose takings are behind `until`, locked. */
const dueMerchants = (qb: Kysely<Rolling>, until: Date, merchantId: string | undefined, batchSize: number) =>
  qb
    .selectFrom("merchant as m")
    .leftJoin("takingsRollup as k", "k.merchantId", "m.id")
    .$if(merchantId !== undefined, (q) => q.where("m.id", "=", merchantId!))
    .where((eb) => eb.or([eb("k.through", "is", null), eb("k.through", "<", until)]))
    .select(["m.id as merchantId", sql<Date>`coalesce(k.through, '-infinity')`.as("through")])
    .orderBy("m.id")
    .limit(batchSize)
    .forNoKeyUpdate("m")
    .skipLocked();

/** The due merchants' requests made in [through, until), per bin and asset. */
const madeSince = (qb: Kysely<Rolling>, until: Date) =>
  qb
    .selectFrom("paymentRequest as r")
    .innerJoin("due", "due.merchantId", "r.merchantId")
    .whereRef("r.createdAt", ">=", "due.through")
    .where("r.createdAt", "<", until)
    .select(["r.merchantId", binOf("r.createdAt").as("start"), "r.asset", sql<number>`count(*)::int`.as("created")])
    .groupBy(["r.merchantId", "start", "r.asset"]);

/** The due merchants' transactions completed in [through, until), per bin and asset. */
const movedSince = (qb: Kysely<Rolling>, until: Date) =>
  qb
    .selectFrom("transaction as t")
    .innerJoin("due", "due.merchantId", "t.merchantId")
    .innerJoin("paymentRequest as r", "r.id", "t.requestId")
    .where("t.state", "=", "COMPLETED")
    .whereRef("t.createdAt", ">=", "due.through")
    .where("t.createdAt", "<", until)
    .select([
      "t.merchantId",
      binOf("t.createdAt").as("start"),
      "r.asset",
      sql<number>`(count(*) FILTER (WHERE t.type = 'PURCHASE'))::int`.as("paid"),
      sql<bigint>`coalesce(sum(t.amount) FILTER (WHERE t.type = 'PURCHASE'), 0)::bigint`.as("paidAmount"),
      sql<bigint>`coalesce(sum(t.amount) FILTER (WHERE t.type = 'REFUND'), 0)::bigint`.as("refundedAmount"),
      sql<
        number[]
      >`coalesce(array_agg(${secondsToPay("t.createdAt", "r.createdAt")}) FILTER (WHERE t.type = 'PURCHASE'), '{}')`.as(
        "secondsToPay",
      ),
    ])
    .groupBy(["t.merchantId", "start", "r.asset"]);

/** The new bins: the requests made and the transactions completed, per bin and asset. */
const newBins = (qb: Kysely<Rolling>) =>
  qb
    .selectFrom("made")
    .fullJoin("moved", (join) =>
      join
        .onRef("moved.merchantId", "=", "made.merchantId")
        .onRef("moved.start", "=", "made.start")
        .onRef("moved.asset", "=", "made.asset"),
    )
    .select([
      sql<string>`coalesce(made.merchant_id, moved.merchant_id)`.as("merchantId"),
      sql<Date>`coalesce(made.start, moved.start)`.as("start"),
      sql<string>`coalesce(made.asset, moved.asset)`.as("asset"),
      sql<number>`coalesce(made.created, 0)`.as("created"),
      sql<number>`coalesce(moved.paid, 0)`.as("paid"),
      sql<bigint>`coalesce(moved.paid_amount, 0)`.as("paidAmount"),
      sql<bigint>`coalesce(moved.refunded_amount, 0)`.as("refundedAmount"),
      sql<number[]>`coalesce(moved.seconds_to_pay, '{}')`.as("secondsToPay"),
    ]);

/**
 * The histogram of each UTC day that `until` completes: the seconds to pay of the day's bins rolled
 * up before and of those this statement adds, and how many payments took each.
 */
const completedDays = (qb: Kysely<Rolling>, until: Date) => {
  const lastDay = dayOf(sql`${until}::timestamp`);
  const paid = qb
    .selectFrom("takingsBin as b")
    .innerJoin("due", "due.merchantId", "b.merchantId")
    .where("b.start", ">=", dayOf(sql.ref("due.through")))
    .where("b.start", "<", lastDay)
    .select(["b.merchantId", dayOf(sql.ref("b.start")).as("day"), sql<number>`unnest(b.seconds_to_pay)`.as("s")])
    .unionAll(
      qb
        .selectFrom("moved")
        .where("moved.start", "<", lastDay)
        .select(["moved.merchantId", dayOf(sql.ref("moved.start")).as("day"), sql<number>`unnest(moved.seconds_to_pay)`.as("s")]),
    );
  const counted = qb
    .selectFrom(paid.as("p"))
    .select(["p.merchantId", "p.day", "p.s", sql<number>`count(*)::int`.as("c")])
    .groupBy(["p.merchantId", "p.day", "p.s"]);
  return qb
    .selectFrom(counted.as("h"))
    .select([
      "h.merchantId",
      "h.day",
      sql<number[]>`array_agg(h.s ORDER BY h.s)`.as("seconds"),
      sql<number[]>`array_agg(h.c ORDER BY h.s)`.as("counts"),
    ])
    .groupBy(["h.merchantId", "h.day"]);
};

/**
 * Rolls up to `until` the takings of up to `batchSize` merchants that are behind it (of
 * `merchantId` only, when given), in one statement; answers how many it moved on. A merchant
 * another roll-up or a rebuild holds is skipped, for the next.
 */
async function rollUpBatch(until: Date, merchantId: string | undefined, batchSize: number): Promise<number> {
  const qb = database.$extendTables<Rolling>();
  const rows = await qb
    .with("due", () => dueMerchants(qb, until, merchantId, batchSize))
    .with("made", () => madeSince(qb, until))
    .with("moved", () => movedSince(qb, until))
    .with("bins", (db) =>
      db
        .insertInto("takingsBin")
        .columns(["merchantId", "start", "asset", "created", "paid", "paidAmount", "refundedAmount", "secondsToPay"])
        .expression(newBins(qb)),
    )
    .with("days", (db) =>
      db.insertInto("takingsDay").columns(["merchantId", "day", "seconds", "counts"]).expression(completedDays(qb, until)),
    )
    .insertInto("takingsRollup")
    .columns(["merchantId", "through"])
    .expression((eb) => eb.selectFrom("due").select(["due.merchantId", sql<Date>`${until}::timestamp`.as("through")]))
    .onConflict((oc) => oc.column("merchantId").doUpdateSet({ through: (eb) => eb.ref("excluded.through") }))
    .returning("merchantId")
    .execute();
  return rows.length;
}

/** Rolls every merchant's takings (or `merchantId`'s only) up to where they may go now; answers how many merchants moved on. */
export async function rollUpTakings(scope: { merchantId?: string } = {}, batchSize = 100): Promise<number> {
  const until = await rollUpBound();
  let total = 0;
  for (;;) {
    const moved = await rollUpBatch(until, scope.merchantId, batchSize);
    total += moved;
    if (moved < batchSize) return total;
  }
}

export const rebuildTakingsInput = z.object({ merchantId: id });
export const rebuildTakingsCodes = { merchantId: "INVALID_MERCHANT_ID" } as const;

/**
 * Forgets a merchant's bins and sums them again from its requests and transactions, after rows
 * were written with times the roll-up had passed. Statistics read the rows themselves meanwhile.
 * Answers how far the new bins go.
 */
export async function rebuildTakings(ctx: DomainContext, input: z.input<typeof rebuildTakingsInput>) {
  requireOperator(ctx);
  const { merchantId } = parseInput(rebuildTakingsInput, rebuildTakingsCodes, input);
  await database.transaction().execute(async (trx) => {
    const merchant = await trx
      .selectFrom("merchant")
      .select("id")
      .where("id", "=", merchantId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!merchant) throw notFound("MERCHANT_NOT_FOUND");
    await trx.deleteFrom("takingsRollup").where("merchantId", "=", merchantId).execute();
    await trx.deleteFrom("takingsBin").where("merchantId", "=", merchantId).execute();
    await trx.deleteFrom("takingsDay").where("merchantId", "=", merchantId).execute();
  });
  await rollUpTakings({ merchantId });
  return { merchantId, rolledUpThrough: (await takingsThrough(database, merchantId))?.toISOString() ?? null };
}

/** How far a merchant's takings are rolled up: null when not at all. */
export async function takingsThrough(db: typeof database, merchantId: string): Promise<Date | null> {
  const row = await db.selectFrom("takingsRollup").select("through").where("merchantId", "=", merchantId).executeTakeFirst();
  return row?.through ?? null;
}
