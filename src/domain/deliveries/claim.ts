import { sql, type Expression, type SqlBool } from "kysely";
import { database } from "../../db.js";
import { compiled, type Param } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { destinationRoom, isSlow } from "./destination.js";
import { isTestEvent, notTestEvent, pending, unleased } from "./states.js";

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
  /** The delivery's id, under the name the jobs' data carries it by (workers of another version read it too). */
  eventId: string;
  attempt: number;
}

export interface ClaimedAttempt extends DueAttempt {
  destination: string;
}

/** A worker's slots for test events, and how many of them one merchant's may hold: a merchant's pings never fill the lane. */
export const TEST_EVENT_SLOTS = 8;
export const TESTS_PER_MERCHANT = 2;

/** The delivery `alias` waits for a turn in the deliveries' lane, as the partial index of the claim reads it. */
const waitingForTurn = (alias: string) =>
  sql<SqlBool>`${pending(alias)} AND ${sql.ref(`${alias}.enqueuedAt`)} IS NULL AND ${notTestEvent(alias)}`;

/**
 * `column` holds one of the values `ids` selects (`= ANY(ARRAY(…))`): each row is looked up by the
 * column's index (the primary key's, or a row's ctid) whatever the planner believes of how many rows
 * there are (see CLAIM_DELIVERIES).
 */
export const amongIds = (column: string, ids: Expression<unknown>) => sql<SqlBool>`${sql.ref(column)} = ANY(ARRAY${ids})`;

interface ClaimParams extends Record<string, unknown> {
  now: Date;
  /** How many to claim at most. */
  free: number;
  /** Deliveries: how many a merchant's slow destinations may hold in all. Tests: how many one merchant's may. */
  share: number;
}

/**
 * The destinations that have waiting deliveries (`waiting`: a loose scan of the waiting index, one
 * probe per destination however long its backlog), what is in flight by destination and merchant,
 * and how many more attempts each destination may take (`room`).
 */
function destinationsRoom(qb: QueryBuilder, free: number) {
  return qb
    .withRecursive("waiting(id)", (db) =>
      db
        .selectNoFrom((eb) =>
          eb
            .selectFrom("delivery as e")
            .select("e.destination")
            .where(waitingForTurn("e"))
            .orderBy("e.destination")
            .limit(sql.lit(1))
            .as("id"),
        )
        .unionAll((db) =>
          db
            .selectFrom("waiting as w")
            .select((eb) =>
              eb
                .selectFrom("delivery as e")
                .select("e.destination")
                .where(waitingForTurn("e"))
                .whereRef("e.destination", ">", "w.id")
                .orderBy("e.destination")
                .limit(sql.lit(1))
                .as("id"),
            )
            .where("w.id", "is not", null),
        ),
    )
    .with("inFlight", (db) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom("delivery as e")
            .select(["e.destination", "e.merchantId", sql<number>`count(*)::int`.as("n")])
            .where(pending("e"))
            .where("e.enqueuedAt", "is not", null)
            .where(notTestEvent("e"))
            .groupBy(["e.destination", "e.merchantId"])
            .as("f"),
        )
        .leftJoin("webhookDestination as h", "h.id", "f.destination")
        .select(["f.destination", "f.merchantId", "f.n", isSlow("h").as("slow")]),
    )
    .with("merchantBusy", (db) =>
      db
        .selectFrom("inFlight")
        .select([
          "merchantId",
          sql<number>`sum(n)::int`.as("n"),
          sql<number | null>`(sum(n) FILTER (WHERE slow))::int`.as("slow"),
        ])
        .groupBy("merchantId"),
    )
    .with("room", (db) =>
      db
        .selectFrom("waiting as w")
        .leftJoin("webhookDestination as h", "h.id", "w.id")
        .leftJoin(
          (eb) =>
            eb
              .selectFrom("inFlight")
              .select(["destination", sql<number>`sum(n)::int`.as("n")])
              .groupBy("destination")
              .as("f"),
          (join) => join.onRef("f.destination", "=", "w.id"),
        )
        .select((eb) => {
          const busy = eb.fn.coalesce("f.n", sql.lit(0));
          return ["w.id", isSlow("h").as("slow"), busy.as("busy"), destinationRoom("h", busy, free).as("room")];
        })
        .where("w.id", "is not", null),
    );
}

/**
 * Up to `free` due deliveries of events as of `now`, of which a merchant's slow destinations may
 * hold `share` in all. After destinationsRoom: `due` takes as many of each destination's due
 * deliveries as it has room for, oldest first, each with its place in its destination's line;
 * `allowed` keeps those within the merchant's slow budget; `turns` orders them for water-filling,
 * merchant by merchant.
 */
function deliveryTurns(qb: QueryBuilder, { now, free, share }: ClaimParams) {
  return destinationsRoom(qb, free)
    .with("due", (db) =>
      db
        .selectFrom("room as r")
        .crossJoinLateral((eb) =>
          eb
            .selectFrom("delivery as e")
            .select(["e.id", "e.merchantId", "e.nextAttemptAt"])
            .whereRef("e.destination", "=", "r.id")
            .where(waitingForTurn("e"))
            .where("e.nextAttemptAt", "<=", now)
            .where(unleased("e", now))
            .orderBy("e.nextAttemptAt")
            .limit(eb.fn<number>("least", ["r.room", eb.val(free)]))
            .as("d"),
        )
        .select((eb) => [
          "d.id",
          "d.merchantId",
          "d.nextAttemptAt",
          "r.slow",
          eb(
            "r.busy",
            "+",
            eb.fn.agg<number>("row_number").over((over) => over.partitionBy("r.id").orderBy("d.nextAttemptAt").orderBy("d.id")),
          ).as("place"),
        ])
        .where("r.room", ">", sql.lit(0)),
    )
    .with("allowed", (db) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom("due")
            .selectAll()
            .select((eb) =>
              eb.fn
                .agg<number>("row_number")
                .over((over) => over.partitionBy(["merchantId", "slow"]).orderBy("place").orderBy("nextAttemptAt").orderBy("id"))
                .as("nth"),
            )
            .as("d"),
        )
        .leftJoin("merchantBusy as m", "m.merchantId", "d.merchantId")
        .selectAll("d")
        .select((eb) => eb.fn.coalesce("m.n", sql.lit(0)).as("merchantBusy"))
        .where((eb) =>
          eb.or([eb.not(eb.ref("d.slow")), eb(eb(eb.fn.coalesce("m.slow", sql.lit(0)), "+", eb.ref("d.nth")), "<=", share)]),
        ),
    )
    .with("turns", (db) =>
      db.selectFrom("allowed").select((eb) => [
        "id",
        "nextAttemptAt",
        eb(
          "merchantBusy",
          "+",
          eb.fn
            .agg<number>("row_number")
            .over((over) => over.partitionBy("merchantId").orderBy("place").orderBy("nextAttemptAt").orderBy("id")),
        ).as("turn"),
      ]),
    );
}

/**
 * Claims up to `free` due deliveries of events as of `now` (deliveryTurns), marking them given a
 * job. The rows taken are looked up by id (amongIds) whatever the planner believes of how many are
 * pending: with statistics taken while a backlog was HELD, a join here compared every pending row
 * with every candidate, a second per claim at 6,000 deliveries.
 */
const CLAIM_DELIVERIES = compiled((qb, param: Param<ClaimParams>) => {
  const [now, free] = [param("now"), param("free")];
  return deliveryTurns(qb, { now, free, share: param("share") })
    .with("picked", (db) =>
      db
        .selectFrom("delivery as e")
        .select("e.id")
        .where(
          amongIds(
            "e.id",
            db.selectFrom("turns").select("id").orderBy("turn").orderBy("nextAttemptAt").orderBy("id").limit(free),
          ),
        )
        .where(pending("e"))
        .where("e.enqueuedAt", "is", null)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable("delivery as e")
    .set({ enqueuedAt: now })
    .where((eb) => amongIds("e.id", eb.selectFrom("picked").select("id")))
    .returning((eb) => ["e.id as eventId", eb("e.attempts", "+", sql.lit(1)).as("attempt"), "e.destination"]);
});

/**
 * Up to `free` due test events as of `now`: at most one in flight per endpoint and `share`
 * (TESTS_PER_MERCHANT) per merchant, the merchant with the fewest in flight first.
 */
const CLAIM_TESTS = compiled((qb, param: Param<ClaimParams>) => {
  const [now, free] = [param("now"), param("free")];
  return qb
    .with("inFlight", (db) =>
      db
        .selectFrom("delivery as e")
        .select(["e.destination", "e.merchantId"])
        .where(pending("e"))
        .where("e.enqueuedAt", "is not", null)
        .where(isTestEvent("e")),
    )
    .with("due", (db) =>
      db
        .selectFrom("delivery as e")
        .distinctOn("e.destination")
        .select(["e.id", "e.merchantId", "e.nextAttemptAt"])
        .where(pending("e"))
        .where(isTestEvent("e"))
        .where("e.enqueuedAt", "is", null)
        .where("e.nextAttemptAt", "<=", now)
        .where("e.destination", "not in", db.selectFrom("inFlight").select("destination"))
        .orderBy("e.destination")
        .orderBy("e.nextAttemptAt")
        .orderBy("e.id"),
    )
    .with("turns", (db) =>
      db.selectFrom("due as d").select((eb) => [
        "d.id",
        "d.nextAttemptAt",
        eb(
          eb.selectFrom("inFlight as f").select(eb.fn.countAll<number>().as("n")).whereRef("f.merchantId", "=", "d.merchantId"),
          "+",
          eb.fn
            .agg<number>("row_number")
            .over((over) => over.partitionBy("d.merchantId").orderBy("d.nextAttemptAt").orderBy("d.id")),
        ).as("turn"),
      ]),
    )
    .with("picked", (db) =>
      db
        .selectFrom("delivery as e")
        .select("e.id")
        .where(
          amongIds(
            "e.id",
            db
              .selectFrom("turns")
              .select("id")
              .where("turn", "<=", param("share"))
              .orderBy("turn")
              .orderBy("nextAttemptAt")
              .orderBy("id")
              .limit(free),
          ),
        )
        .where(pending("e"))
        .where("e.enqueuedAt", "is", null)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable("delivery as e")
    .set({ enqueuedAt: now })
    .where((eb) => amongIds("e.id", eb.selectFrom("picked").select("id")))
    .returning((eb) => ["e.id as eventId", eb("e.attempts", "+", sql.lit(1)).as("attempt"), "e.destination"]);
});

/** One lock per lane: a claim counts what is in flight, which another claim at the same time would not see. */
const LANE_LOCK = { deliveries: 7_305_001, tests: 7_305_002 } as const;
const LOCK = compiled((qb, param: Param<{ lane: number }>) =>
  qb.selectNoFrom(sql`pg_advisory_xact_lock(${param("lane")}::bigint)`.as("locked")),
);

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
  return database.transaction().execute(async (trx) => {
    await LOCK(trx, { lane: LANE_LOCK[lane] });
    return lane === "deliveries"
      ? CLAIM_DELIVERIES(trx, { now, free, share: Math.max(1, Math.floor(slots / 2)) })
      : CLAIM_TESTS(trx, { now, free, share: TESTS_PER_MERCHANT });
  });
}

/**
 * Takes back the claims whose job was lost (given before `lostBefore` and never run: Redis lost it,
 * its hand-over failed, or its worker died), so they wait for a turn again; the attempt of one whose
 * worker died mid-delivery counts, once its lease ran out. Returns how many.
 */
export async function releaseLostClaims(lostBefore: Date, now: Date): Promise<number> {
  // A delivery another statement holds (a batch of attempts starting or finishing) is being worked
  // on, not lost: it is skipped, never waited for. Waiting could deadlock: that batch may be waiting
  // for a row this statement holds.
  const { released } = await database
    .with("lost", (db) =>
      db
        .selectFrom("delivery as e")
        .select("e.id")
        .where(pending("e"))
        .where("e.enqueuedAt", "<", lostBefore)
        .where(unleased("e", now))
        .forUpdate()
        .skipLocked(),
    )
    .with("released", (db) =>
      db
        .updateTable("delivery as e")
        .set({ enqueuedAt: null })
        .where((eb) => amongIds("e.id", eb.selectFrom("lost").select("id")))
        .returning(sql`1`.as("one")),
    )
    .selectFrom("released")
    .select(sql<number>`count(*)::int`.as("released"))
    .executeTakeFirstOrThrow();
  return released;
}

/**
 * When the earliest delivery that waits for its time comes due, as of the `now` of the claims just
 * made: one that came due since then is already due (a time not after the clock's now), so nothing
 * falls between a claim and the next. Null when none waits for its time.
 */
export async function nextDueAt(now: Date): Promise<Date | null> {
  return (await NEXT_DUE_AT(database, { now }))[0]?.nextAttemptAt ?? null;
}

const NEXT_DUE_AT = compiled((qb, param: Param<{ now: Date }>) =>
  qb
    .selectFrom("delivery as e")
    .select("e.nextAttemptAt")
    .where(pending("e"))
    .where("e.enqueuedAt", "is", null)
    .where("e.nextAttemptAt", ">", param("now"))
    .orderBy("e.nextAttemptAt")
    .limit(sql.lit(1)),
);
