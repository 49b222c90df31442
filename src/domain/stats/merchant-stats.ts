/**
 * A merchant's takings over a range, in hours or days of its own time zone: for each bucket and
 * asset, the requests created, the payments and their amount, and the refunds' amount; the totals;
 * and the median time from a request's creation to its payment. One statement, on the reads that may
 * lag (a dashboard's).
 */
import { sql, type QueryCreator, type RawBuilder } from "kysely";
import type { DB } from "../../generated/kysely/database.js";
import { requireMerchant } from "../auth.js";
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

/** The merchant's completed payments and refunds of the range, with their requests. */
const movedIn = (db: QueryCreator<DB>, { merchantId, from, to }: Scope) =>
  db
    .selectFrom("transaction as t")
    .innerJoin("paymentRequest as r", "r.id", "t.requestId")
    .where("t.merchantId", "=", merchantId)
    .where("t.state", "=", "COMPLETED")
    .where("t.createdAt", ">=", from)
    .where("t.createdAt", "<", to);

const createdPerBucket = (db: QueryCreator<DB>, { merchantId, from, to, bucketOf }: Scope) =>
  db
    .selectFrom("paymentRequest as r")
    .where("r.merchantId", "=", merchantId)
    .where("r.createdAt", ">=", from)
    .where("r.createdAt", "<", to)
    .select([bucketOf(instant("r.createdAt")).as("start"), "r.asset", sql<number>`count(*)::int`.as("created")])
    .groupBy(["start", "r.asset"]);

const movedPerBucket = (db: QueryCreator<DB>, scope: Scope) =>
  movedIn(db, scope)
    .select([
      scope.bucketOf(instant("t.createdAt")).as("start"),
      "r.asset",
      sql<number>`(count(*) FILTER (WHERE t.type = 'PURCHASE'))::int`.as("paid"),
      sql<string>`coalesce(sum(t.amount) FILTER (WHERE t.type = 'PURCHASE'), 0)`.as("paidAmount"),
      sql<string>`coalesce(sum(t.amount) FILTER (WHERE t.type = 'REFUND'), 0)`.as("refundedAmount"),
    ])
    .groupBy(["start", "r.asset"]);

const medianWait = (db: QueryCreator<DB>, scope: Scope) =>
  movedIn(db, scope)
    .where("t.type", "=", "PURCHASE")
    .select(
      sql<
        number | null
      >`round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM t.created_at - r.created_at)))::int`.as("median"),
    );

export async function merchantStats(ctx: DomainContext, range: StatsRange): Promise<MerchantStats> {
  const { merchantId } = requireMerchant(ctx);
  const timeZone = checkedTimeZone(range.timeZone);
  checkedRange(range);
  const { unit, step } = UNITS[range.bucket];
  const bucketOf = (at: RawBuilder<unknown>) => sql<Date>`date_trunc(${unit}, ${at}, ${timeZone})`;
  const scope: Scope = { merchantId, from: range.from, to: range.to, bucketOf };
  const fromAt = sql`(${range.from}::timestamp AT TIME ZONE 'UTC')`;
  const toAt = sql`(${range.to}::timestamp AT TIME ZONE 'UTC')`;
  const { database } = await dashboardDatabase(ctx);
  const rows = await database
    // Every bucket the range touches, empty ones included: those of a series of steps, and the last one.
    .with("slot", (db) =>
      db
        // A function's alias in FROM names its one column too.
        .selectFrom(sql<Date>`generate_series(${bucketOf(fromAt)}, ${toAt}, ${step}::interval)`.as("g"))
        .where(sql<boolean>`g < ${toAt}`)
        .select(bucketOf(sql`g`).as("start"))
        .union(db.selectNoFrom(bucketOf(sql`${toAt} - interval '1 microsecond'`).as("start"))),
    )
    .with("made", () => createdPerBucket(database, scope))
    .with("moved", () => movedPerBucket(database, scope))
    // The assets the merchant takes, and any other its requests of the range were in.
    .with("held", (db) =>
      db
        .selectFrom("configurationItem as c")
        .where("c.merchantId", "=", merchantId)
        .select("c.currency as asset")
        .union(db.selectFrom("made").select("made.asset"))
        .union(db.selectFrom("moved").select("moved.asset")),
    )
    .with("waited", () => medianWait(database, scope))
    .selectFrom("slot")
    .crossJoin("held")
    .leftJoin("made", (join) => join.onRef("made.start", "=", "slot.start").onRef("made.asset", "=", "held.asset"))
    .leftJoin("moved", (join) => join.onRef("moved.start", "=", "slot.start").onRef("moved.asset", "=", "held.asset"))
    .select([
      sql<Date>`slot.start AT TIME ZONE 'UTC'`.as("start"),
      "held.asset",
      sql<number>`coalesce(made.created, 0)`.as("created"),
      sql<number>`coalesce(moved.paid, 0)`.as("paid"),
      sql<string>`coalesce(moved.paid_amount, 0)`.as("paidAmount"),
      sql<string>`coalesce(moved.refunded_amount, 0)`.as("refundedAmount"),
      (eb) => eb.selectFrom("waited").select("waited.median").as("median"),
    ])
    .orderBy("start")
    .orderBy("held.asset")
    .execute();
  const buckets = rows.map(({ start, asset, created, paid, paidAmount, refundedAmount }) => ({
    start,
    asset,
    created,
    paid,
    paidAmount: BigInt(paidAmount),
    refundedAmount: BigInt(refundedAmount),
  }));
  return { buckets, totals: totalsOf(buckets), medianSecondsToPay: rows[0]?.median ?? null };
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
