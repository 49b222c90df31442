/**
 * A merchant's takings over a range, in hours or days of its own time zone: for each bucket and
 * asset, the requests created, the payments and their amount, and the refunds' amount; the totals;
 * and the median time from a request's creation to its payment. One statement, on the reads that may
 * lag (a dashboard's).
 */
import { sql, type QueryCreator, type RawBuilder } from "kysely";
import type { DB } from "../../generated/kysely/database.js";
import { requireMerchant } from "../auth.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";

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

/** What each part of the statement reads: the merchant's rows of [from, to), bucketed in the time zone. */
interface Scope {
  merchantId: string;
  from: Date;
  to: Date;
  bucketOf: (at: RawBuilder<unknown>) => RawBuilder<Date>;
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
const slots = (db: QueryCreator<DB>, { bucketOf, from, to }: Scope, step: string) => {
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

const createdPerBucket = (db: QueryCreator<DB>, { merchantId, from, to, bucketOf }: Scope) =>
  db
    .selectFrom("paymentRequest as r")
    .where("r.merchantId", "=", merchantId)
    .where("r.createdAt", ">=", from)
    .where("r.createdAt", "<", to)
    .select([bucketOf(instant("r.createdAt")).as("start"), "r.asset", sql<number>`count(*)::int`.as("created")])
    .groupBy(["start", "r.asset"]);

/**
 * The payments and refunds of each bucket and asset, and (in the grand total's row, the grouping
 * set `()`) the median time to pay: one scan of the transactions, joined to their requests.
 */
const movedPerBucket = (db: QueryCreator<DB>, { merchantId, from, to, bucketOf }: Scope) =>
  db
    .selectFrom("transaction as t")
    .innerJoin("paymentRequest as r", "r.id", "t.requestId")
    .where("t.merchantId", "=", merchantId)
    .where("r.merchantId", "=", merchantId)
    .where("t.state", "=", "COMPLETED")
    .where("t.createdAt", ">=", from)
    .where("t.createdAt", "<", to)
    .select([
      bucketOf(instant("t.createdAt")).as("start"),
      "r.asset",
      sql<boolean>`grouping(r.asset) = 1`.as("grand"),
      sql<number>`(count(*) FILTER (WHERE t.type = 'PURCHASE'))::int`.as("paid"),
      sql<string>`coalesce(sum(t.amount) FILTER (WHERE t.type = 'PURCHASE'), 0)`.as("paidAmount"),
      sql<string>`coalesce(sum(t.amount) FILTER (WHERE t.type = 'REFUND'), 0)`.as("refundedAmount"),
      sql<number | null>`round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM t.created_at - r.created_at))
        FILTER (WHERE t.type = 'PURCHASE'))::int`.as("median"),
    ])
    .groupBy(sql`GROUPING SETS ((1, r.asset), ())`);

/**
 * The statement's parts, as rows of one shape: the range's buckets, the merchant's assets, and the
 * figures of each bucket and asset that has any. They are put together in buckets here, not joined
 * in SQL, where the estimate of a join of aggregates over a time zone's buckets is so far off (each
 * group taken for a row) that PostgreSQL compiled the statement with JIT, for seconds.
 */
async function statsParts(database: QueryBuilder, scope: Scope, step: string): Promise<Part[]> {
  const none = {
    created: sql<number>`0`,
    paid: sql<number>`0`,
    paidAmount: sql<string>`0::numeric`,
    refundedAmount: sql<string>`0::numeric`,
  };
  return (await database
    .with("slot", () => slots(database, scope, step))
    .with("made", () => createdPerBucket(database, scope))
    .with("moved", () => movedPerBucket(database, scope))
    .selectFrom("slot")
    .select([
      sql.lit("slot").as("kind"),
      sql<Date | null>`slot.start`.as("start"),
      sql<string | null>`NULL::text`.as("asset"),
      none.created.as("created"),
      none.paid.as("paid"),
      none.paidAmount.as("paidAmount"),
      none.refundedAmount.as("refundedAmount"),
      sql<number | null>`NULL::int`.as("median"),
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
        ])
        .select(sql<number | null>`NULL::int`.as("median")),
    )
    .unionAll((db) =>
      db
        .selectFrom("made")
        .select([sql.lit("made").as("kind"), "made.start", "made.asset", "made.created", none.paid.as("paid")])
        .select([
          none.paidAmount.as("paidAmount"),
          none.refundedAmount.as("refundedAmount"),
          sql<number | null>`NULL::int`.as("median"),
        ]),
    )
    .unionAll((db) =>
      db
        .selectFrom("moved")
        .select([sql<string>`CASE WHEN moved.grand THEN 'median' ELSE 'moved' END`.as("kind"), "moved.start", "moved.asset"])
        .select([none.created.as("created"), "moved.paid", "moved.paidAmount", "moved.refundedAmount", "moved.median"]),
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
  const parts = await statsParts(database, { merchantId, from: range.from, to: range.to, bucketOf }, step);
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
