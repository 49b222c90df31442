/**
 * A merchant's takings over a range, in hours or days of its own time zone: for each bucket and
 * asset, the requests created, the payments and their amount, and the refunds' amount; the totals;
 * and the median time from a request's creation to its payment. One statement, on the reads that may
 * lag (a dashboard's), over the roll-up's bins (takings-rollup.ts) and the rows the bins leave out.
 */
import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "../../generated/kysely/database.js";
import { requireMerchant } from "../auth.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { BIN_MS, secondsToPay, takingsThrough } from "./takings-rollup.js";

export type StatsBucket = "HOUR" | "DAY";

export interface StatsRow {
  /** The bucket's first instant; null in the totals. */
  start: Date | null;
  asset: string;
  created: number;
  paid: number;
  paidAmount: bigint;
  refundedAmount: bigint;
}

export interface MerchantStats {
  buckets: StatsRow[];
  totals: StatsRow[];
  medianSecondsToPay: number | null;
}

export interface StatsRange {
  from: Date;
  to: Date;
  bucket: StatsBucket;
  /** An IANA time zone name; UTC when not given. */
  timeZone?: string | null;
}

const DAY_MS = 86_400_000;
const MOST_DAYS: Record<StatsBucket, number> = { HOUR: 31, DAY: 400 };
/**
 * The bucket's unit for date_trunc, and a step no bucket is shorter than: every bucket of the range
 * holds a step of the series the buckets are listed from (a local hour lasts 30 minutes or more, a
 * local day 23 hours or more).
 */
const UNITS: Record<StatsBucket, { unit: string; step: string }> = {
  HOUR: { unit: "hour", step: "15 minutes" },
  DAY: { unit: "day", step: "1 hour" },
};

/**
 * An IANA zone name both this process and PostgreSQL read alike. A POSIX-style offset (`+05:00`,
 * `UTC+5`) is refused: PostgreSQL reads its sign the other way round.
 */
function checkedTimeZone(given: string | null | undefined): string {
  const zone = given?.trim() || "UTC";
  const named = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(zone) && !/^(?:UTC|GMT)[+-]/i.test(zone);
  try {
    if (named && new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone) return zone;
  } catch {
    // An unknown zone: refused below.
  }
  throw new ValidationError(
    "BAD_REQUEST",
    `timeZone must be an IANA time zone name, such as Pacific/Auckland; "${zone}" is not one.`,
  );
}

function checkedRange({ from, to, bucket }: StatsRange) {
  if (!(from.getTime() < to.getTime())) throw new ValidationError("BAD_REQUEST", "from must be before to.");
  if (to.getTime() - from.getTime() > MOST_DAYS[bucket] * DAY_MS)
    throw new ValidationError("BAD_REQUEST", `A range of ${bucket} buckets spans at most ${MOST_DAYS[bucket]} days.`);
}

/** The instant a `timestamp` column (UTC without a zone) stands for. */
const instant = (column: string) => sql`(${sql.ref(column)} AT TIME ZONE 'UTC')`;

/**
 * What each part of the statement reads, for the merchant's [from, to) bucketed in the time zone:
 * the roll-up's bins over `binned` (whole bins the roll-up has passed), and the rows themselves over
 * `raw` (the rest of the range: its ragged ends, and what the roll-up has not reached). The median
 * reads the day histograms over `days` (the whole UTC days of `binned`) and the bins over `edges`
 * (the rest of `binned`).
 */
interface Scope {
  merchantId: string;
  from: Date;
  to: Date;
  binned: Span[];
  raw: Span[];
  days: Span[];
  edges: Span[];
  bucketOf: (at: RawBuilder<unknown>) => RawBuilder<Date>;
}

interface Span {
  from: Date;
  to: Date;
}

/** `outer`'s widest part made of whole `unit`s up to `limit`, if any. */
function whole(outer: Span, unit: number, limit = Infinity): Span | null {
  const from = Math.ceil(outer.from.getTime() / unit) * unit;
  const to = Math.min(Math.floor(outer.to.getTime() / unit) * unit, limit);
  return from < to ? { from: new Date(from), to: new Date(to) } : null;
}

/** The parts of `outer` around `inner`. */
const around = (outer: Span, inner: Span | null): Span[] =>
  inner
    ? [
        { from: outer.from, to: inner.from },
        { from: inner.to, to: outer.to },
      ].filter((span) => span.from < span.to)
    : [outer];

/** Splits [from, to) into whole bins before `through`, the whole days among them, and the rest. */
function spansOf(range: Span, through: Date | null): Pick<Scope, "binned" | "raw" | "days" | "edges"> {
  const binned = whole(range, BIN_MS, through?.getTime() ?? -Infinity);
  const days = binned && whole(binned, DAY_MS);
  return {
    binned: binned ? [binned] : [],
    raw: around(range, binned),
    days: days ? [days] : [],
    edges: binned ? around(binned, days) : [],
  };
}

/** One row of the statement: a bucket of the range, an asset the merchant takes, or the figures of a bucket and asset. */
interface Part {
  kind: "slot" | "asset" | "made" | "moved" | "median";
  start: Date | null;
  asset: string | null;
  created: number;
  paid: number;
  paidAmount: string;
  refundedAmount: string;
  median: number | null;
}

/** Every bucket the range touches, empty ones included: those of a series of steps, and the last one. */
const slots = (db: Kysely<Reading>, { bucketOf, from, to }: Scope, step: string) => {
  const fromAt = sql`(${from}::timestamp AT TIME ZONE 'UTC')`;
  const toAt = sql`(${to}::timestamp AT TIME ZONE 'UTC')`;
  return (
    db
      // A function's alias in FROM names its one column too.
      .selectFrom(sql<Date>`generate_series(${bucketOf(fromAt)}, ${toAt}, ${step}::interval)`.as("g"))
      .where(sql<boolean>`g < ${toAt}`)
      .select(bucketOf(sql`g`).as("start"))
      .union(db.selectNoFrom(bucketOf(sql`${toAt} - interval '1 microsecond'`).as("start")))
  );
};

/** `column` within one of `spans` (a range of its index each); false when there is none. */
const within = (column: string, spans: Span[]) =>
  spans.length === 0
    ? sql<boolean>`false`
    : sql<boolean>`(${sql.join(
        spans.map((span) => sql`(${sql.ref(column)} >= ${span.from} AND ${sql.ref(column)} < ${span.to})`),
        sql` OR `,
      )})`;

/** A bin's bucket, the first column: by its name, GROUP BY would take the bin's own `start`. */
const BUCKET = sql`1`;

/** The merchant's bins within `spans`. */
const binsWithin = (db: Kysely<Reading>, merchantId: string, spans: Span[]) =>
  db.selectFrom("takingsBin as b").where("b.merchantId", "=", merchantId).where(within("b.start", spans));

/** Requests made per bucket and asset: from the rows over the raw spans, and from the bins. */
const createdPerBucket = (db: Kysely<Reading>, scope: Scope) =>
  db
    .selectFrom("paymentRequest as r")
    .where("r.merchantId", "=", scope.merchantId)
    .where(within("r.createdAt", scope.raw))
    .select([scope.bucketOf(instant("r.createdAt")).as("start"), "r.asset", sql<number>`count(*)::int`.as("created")])
    .groupBy(["start", "r.asset"])
    .unionAll(
      binsWithin(db, scope.merchantId, scope.binned)
        .where("b.created", ">", 0)
        .select([scope.bucketOf(instant("b.start")).as("start"), "b.asset", sql<number>`sum(b.created)::int`.as("created")])
        .groupBy([BUCKET, "b.asset"]),
    );

/** The completed transactions over the raw spans, each with its bucket, its request's asset and its seconds to pay. */
const rawMoves = (db: Kysely<Reading>, { merchantId, raw, bucketOf }: Scope) =>
  db
    .selectFrom("transaction as t")
    .innerJoin("paymentRequest as r", "r.id", "t.requestId")
    .where("t.merchantId", "=", merchantId)
    .where("r.merchantId", "=", merchantId)
    .where("t.state", "=", "COMPLETED")
    .where(within("t.createdAt", raw))
    .select([
      bucketOf(instant("t.createdAt")).as("start"),
      "r.asset",
      "t.type",
      "t.amount",
      secondsToPay("t.createdAt", "r.createdAt").as("seconds"),
    ]);

/** The payments and refunds of the bins, per bucket and asset. */
const binnedMoves = (db: Kysely<Reading>, scope: Scope) =>
  binsWithin(db, scope.merchantId, scope.binned)
    .where((eb) => eb.or([eb("b.paid", ">", 0), eb("b.refundedAmount", ">", 0n)]))
    .select([
      scope.bucketOf(instant("b.start")).as("start"),
      "b.asset",
      sql<number>`sum(b.paid)::int`.as("paid"),
      sql<string>`sum(b.paid_amount)`.as("paidAmount"),
      sql<string>`sum(b.refunded_amount)`.as("refundedAmount"),
    ])
    .groupBy([BUCKET, "b.asset"]);

/** The seconds to pay of the payments in the edges' bins, and how many took each (one). */
const edgeSeconds = (db: Kysely<Reading>, scope: Scope) =>
  binsWithin(db, scope.merchantId, scope.edges).select([
    sql<number>`unnest(b.seconds_to_pay)`.as("seconds"),
    sql<number>`1`.as("count"),
  ]);

/** The seconds to pay of the payments of the whole days, and how many took each. */
const daySeconds = (db: Kysely<Reading>, { merchantId, days }: Scope) =>
  db
    .selectFrom("takingsDay as d")
    .where("d.merchantId", "=", merchantId)
    .where(within("d.day", days))
    // Two arrays unnested side by side in the select list go in step.
    .select([sql<number>`unnest(d.seconds)`.as("seconds"), sql<number>`unnest(d.counts)`.as("count")]);

/** The tables the statement adds that its parts read. */
type Reading = DB & {
  rawMove: { start: Date; asset: string; type: string; amount: bigint; seconds: number };
  toPay: { seconds: number; upTo: number; all: number };
};

/** The payments and refunds per bucket and asset, from the raw moves and from the bins. */
const movedPerBucket = (qb: Kysely<Reading>, scope: Scope) =>
  qb
    .selectFrom("rawMove as m")
    .select([
      "m.start",
      "m.asset",
      sql<number>`(count(*) FILTER (WHERE m.type = 'PURCHASE'))::int`.as("paid"),
      sql<string>`coalesce(sum(m.amount) FILTER (WHERE m.type = 'PURCHASE'), 0)`.as("paidAmount"),
      sql<string>`coalesce(sum(m.amount) FILTER (WHERE m.type = 'REFUND'), 0)`.as("refundedAmount"),
    ])
    .groupBy(["m.start", "m.asset"])
    .unionAll(binnedMoves(qb, scope));

/**
 * Each distinct number of seconds payments took, with how many took it up to it and in all: from
 * the raw moves, the edges' bins and the days' histograms.
 */
const secondsToPayCounts = (qb: Kysely<Reading>, scope: Scope) => {
  const paid = qb
    .selectFrom("rawMove as m")
    .where("m.type", "=", "PURCHASE")
    .select(["m.seconds", sql<number>`1`.as("count")])
    .unionAll(edgeSeconds(qb, scope))
    .unionAll(daySeconds(qb, scope));
  const counted = qb
    .selectFrom(paid.as("p"))
    .select(["p.seconds", sql<number>`sum(p.count)`.as("count")])
    .groupBy("p.seconds");
  return qb
    .selectFrom(counted.as("h"))
    .select([
      "h.seconds",
      sql<number>`sum(h.count) OVER (ORDER BY h.seconds)`.as("upTo"),
      sql<number>`sum(h.count) OVER ()`.as("all"),
    ]);
};

/** percentile_cont(0.5) of the seconds to pay, rounded: the middle one, or the mean of the middle two. */
const medianOf = (qb: Kysely<Reading>) =>
  qb.selectFrom("toPay as w").select(
    sql<number | null>`round((min(w.seconds) FILTER (WHERE w.up_to >= div(w.all + 1, 2))
      + min(w.seconds) FILTER (WHERE w.up_to >= div(w.all, 2) + 1)) / 2.0)::int`.as("median"),
  );

/**
 * The statement's parts, as rows of one shape: the range's buckets, the merchant's assets, the
 * figures of each bucket and asset that has any, and the median. They are put together in buckets
 * here, not joined in SQL, where the estimate of a join of aggregates over a time zone's buckets is
 * so far off (each group taken for a row) that PostgreSQL compiled the statement with JIT, for seconds.
 */
async function statsParts(database: QueryBuilder, scope: Scope, step: string): Promise<Part[]> {
  const none = {
    created: sql<number>`0`,
    paid: sql<number>`0`,
    paidAmount: sql<string>`0::numeric`,
    refundedAmount: sql<string>`0::numeric`,
    median: sql<number | null>`NULL::int`,
  };
  const qb = database.$extendTables<Reading>();
  return (await qb
    .with("slot", () => slots(qb, scope, step))
    .with("rawMove", () => rawMoves(qb, scope))
    .with("made", () => createdPerBucket(qb, scope))
    .with("moved", () => movedPerBucket(qb, scope))
    .with("toPay", () => secondsToPayCounts(qb, scope))
    .with("median", () => medianOf(qb))
    .selectFrom("slot")
    .select([
      sql.lit("slot").as("kind"),
      sql<Date | null>`slot.start`.as("start"),
      sql<string | null>`NULL::text`.as("asset"),
      none.created.as("created"),
      none.paid.as("paid"),
      none.paidAmount.as("paidAmount"),
      none.refundedAmount.as("refundedAmount"),
      none.median.as("median"),
    ])
    .unionAll((db) =>
      db
        .selectFrom("configurationItem as c")
        .where("c.merchantId", "=", scope.merchantId)
        .select([sql.lit("asset").as("kind"), sql<Date | null>`NULL::timestamptz`.as("start"), "c.currency as asset"])
        .select([
          none.created.as("created"),
          none.paid.as("paid"),
          none.paidAmount.as("paidAmount"),
          none.refundedAmount.as("refundedAmount"),
          none.median.as("median"),
        ]),
    )
    .unionAll((db) =>
      db
        .selectFrom("made")
        .select([sql.lit("made").as("kind"), "made.start", "made.asset", "made.created", none.paid.as("paid")])
        .select([none.paidAmount.as("paidAmount"), none.refundedAmount.as("refundedAmount"), none.median.as("median")]),
    )
    .unionAll((db) =>
      db
        .selectFrom("moved")
        .select([sql.lit("moved").as("kind"), "moved.start", "moved.asset"])
        .select([none.created.as("created"), "moved.paid", "moved.paidAmount", "moved.refundedAmount", none.median.as("median")]),
    )
    .unionAll((db) =>
      db
        .selectFrom("median")
        .select([
          sql.lit("median").as("kind"),
          sql<Date | null>`NULL::timestamptz`.as("start"),
          sql<string | null>`NULL::text`.as("asset"),
        ])
        .select([none.created.as("created"), none.paid.as("paid"), none.paidAmount.as("paidAmount")])
        .select([none.refundedAmount.as("refundedAmount"), "median.median"]),
    )
    .execute()) as Part[];
}

export async function merchantStats(ctx: DomainContext, range: StatsRange): Promise<MerchantStats> {
  const { merchantId } = requireMerchant(ctx);
  const timeZone = checkedTimeZone(range.timeZone);
  checkedRange(range);
  const { unit, step } = UNITS[range.bucket];
  const bucketOf = (at: RawBuilder<unknown>) => sql<Date>`date_trunc(${unit}, ${at}, ${timeZone})`;
  const { database } = await dashboardDatabase(ctx);
  // Bins below `through` never change, so the bins read next are those it vouches for.
  const spans = spansOf(range, await takingsThrough(database, merchantId));
  const parts = await statsParts(database, { merchantId, from: range.from, to: range.to, bucketOf, ...spans }, step);
  return bucketsOf(parts);
}

/** One row per bucket and asset (the merchant's, and any its figures name), oldest first, with the totals and the median. */
function bucketsOf(parts: Part[]): MerchantStats {
  const starts = [...new Set(parts.filter((part) => part.kind === "slot").map((part) => part.start!.getTime()))].sort(
    (a, b) => a - b,
  );
  const assets = [
    ...new Set(parts.filter((part) => part.kind !== "slot" && part.asset !== null).map((part) => part.asset!)),
  ].sort();
  const figures = new Map<string, StatsRow>();
  const rowOf = (start: number, asset: string) => {
    const key = `${start} ${asset}`;
    let row = figures.get(key);
    if (!row)
      figures.set(key, (row = { start: new Date(start), asset, created: 0, paid: 0, paidAmount: 0n, refundedAmount: 0n }));
    return row;
  };
  for (const part of parts) {
    if (part.kind === "made") rowOf(part.start!.getTime(), part.asset!).created += part.created;
    if (part.kind === "moved") {
      const row = rowOf(part.start!.getTime(), part.asset!);
      row.paid += part.paid;
      row.paidAmount += BigInt(part.paidAmount);
      row.refundedAmount += BigInt(part.refundedAmount);
    }
  }
  const buckets = starts.flatMap((start) => assets.map((asset) => rowOf(start, asset)));
  const median = parts.find((part) => part.kind === "median")?.median ?? null;
  return { buckets, totals: totalsOf(buckets), medianSecondsToPay: median };
}

/** Each asset's buckets summed: the buckets partition the range. */
function totalsOf(buckets: StatsRow[]): StatsRow[] {
  const totals = new Map<string, StatsRow>();
  for (const row of buckets) {
    const total = totals.get(row.asset) ?? {
      start: null,
      asset: row.asset,
      created: 0,
      paid: 0,
      paidAmount: 0n,
      refundedAmount: 0n,
    };
    total.created += row.created;
    total.paid += row.paid;
    total.paidAmount += row.paidAmount;
    total.refundedAmount += row.refundedAmount;
    totals.set(row.asset, total);
  }
  return [...totals.values()];
}
