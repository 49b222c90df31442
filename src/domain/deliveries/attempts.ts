import { setTimeout as sleep } from "node:timers/promises";
import DataLoader from "dataloader";
import { sql, type SqlBool } from "kysely";
import { isDatabaseUnavailable } from "../../connection-errors.js";
import { database } from "../../db.js";
import type { WebhookAttemptOutcome, DeliveryState } from "../../generated/kysely/enums.js";
import { compiled, type Param } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import type { Row } from "../../sql/rows.js";
import { toUtcText as utc } from "../../sql/query-builder.js";
import type { AttemptVerdict } from "../webhooks/retry-schedule.js";
import { amongIds, type DueAttempt } from "./claim.js";
import { QUICK_MS } from "./destination.js";
import { HELD, isTestEvent, notTestEvent, notToDisabledEndpoint, pending, unleased } from "./states.js";

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
  Row<"delivery">,
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
      const rows = await START_ATTEMPTS(database, {
        ids: due.map((d) => d.eventId),
        attempts: due.map((d) => d.attempt),
        leaseUntil: new Date(startedAt.getTime() + leaseMs),
        now: startedAt,
      });
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

interface StartParams extends Record<string, unknown> {
  /** The deliveries, and the attempt each is due to make (the same place in each list). */
  ids: string[];
  attempts: number[];
  leaseUntil: Date;
  now: Date;
}

/** `e.id` is one of the deliveries `ids` names (an array parameter). */
const named = (ids: string[]) => sql<SqlBool>`${sql.ref("e.id")} = ANY(${ids}::uuid[])`;

/**
 * The attempts due (`due`), those whose endpoint is disabled held (`held`), and the rest taken for
 * their attempt (`claimed`): their next attempt, and no lease holds them.
 */
function takenForAttempts(qb: QueryBuilder, { ids, attempts, leaseUntil, now }: StartParams) {
  return qb
    .with("due(id, attempt)", () => sql`(SELECT * FROM unnest(${ids}::uuid[], ${attempts}::int[]))`)
    .with("held", (db) =>
      db
        .updateTable("delivery as e")
        .from(["due as d", "webhookEndpoint as ep"])
        .set({ ...HELD, updatedAt: now })
        .where(named(ids))
        .whereRef("e.id", "=", "d.id")
        .whereRef("ep.id", "=", "e.endpointId")
        .where((eb) => eb.not(eb.ref("ep.enabled")))
        .where(notTestEvent("e"))
        .where(pending("e"))
        .where(unleased("e", now)),
    )
    .with("claimed", (db) =>
      db
        .updateTable("delivery as e")
        .from("due as d")
        .set((eb) => ({
          attempts: eb("e.attempts", "+", sql.lit(1)),
          leaseUntil,
          url: eb.fn.coalesce(
            eb.selectFrom("webhookEndpoint as ep").select("ep.url").whereRef("ep.id", "=", "e.endpointId"),
            eb.ref("e.url"),
          ),
        }))
        .where(named(ids))
        .whereRef("e.id", "=", "d.id")
        .where((eb) => eb("e.attempts", "=", eb("d.attempt", "-", sql.lit(1))))
        .where(pending("e"))
        .where(unleased("e", now))
        // A test event tries its endpoint even while it is disabled.
        .where((eb) => eb.or([notToDisabledEndpoint("e"), isTestEvent("e")]))
        .returningAll("e"),
    );
}

/** takenForAttempts, with each attempt's row written IN_FLIGHT, answering the deliveries taken. */
const START_ATTEMPTS = compiled((qb, param: Param<StartParams>) =>
  takenForAttempts(qb, { ids: param("ids"), attempts: param("attempts"), leaseUntil: param("leaseUntil"), now: param("now") })
    .with("attempt", (db) =>
      db
        .insertInto("webhookAttempt")
        .columns(["id", "deliveryId", "endpointId", "number", "startedAt", "outcome"])
        .expression(
          db
            .selectFrom("claimed")
            .select([
              sql<string>`gen_random_uuid()`.as("attemptId"),
              "id",
              "endpointId",
              "attempts",
              sql<Date>`${param("now")}::timestamp(3)`.as("startedAt"),
              sql.lit("IN_FLIGHT").as("outcome"),
            ]),
        )
        .returning(["id", "deliveryId"]),
    )
    .selectFrom("claimed as c")
    .innerJoin("attempt as a", "a.deliveryId", "c.id")
    .select([
      "c.id",
      "c.url",
      "c.payload",
      "c.attempts",
      "c.attemptLimit",
      "c.correlationId",
      "c.traceparent",
      "c.endpointId",
      "c.eventId",
      "c.type",
      "c.createdAt",
      "c.merchantId",
      "c.destination",
      "a.id as attemptId",
    ]),
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
      const rows = batch.map(doneRow);
      const done = JSON.stringify(rows);
      const toEndpoints = rows.some((row) => row.endpoint_id !== null);
      // The attempts were made: a connection lost meanwhile (a reset, a failover) must not leave them
      // unrecorded, to be made again once their leases lapse.
      await whileDatabaseReturns(async () => {
        if (!toEndpoints) return FINISH_ATTEMPTS(database, { done });
        const now = new Date();
        return database.transaction().execute(async (trx) => {
          await ENDPOINT_HEALTH(trx, { done, now, failingBefore: new Date(now.getTime() - disableAfterMs) });
          await FINISH_ATTEMPTS(trx, { done });
        });
      });
      return batch.map(() => true as const);
    },
    { cache: false, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );
}

/** A finished attempt as a row of the batch's JSON (`done`): timestamps as zone-less UTC text. */
function doneRow({ attempt, result, verdict }: Finish) {
  return {
    attempt_id: attempt.attemptId,
    delivery_id: attempt.id,
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
  };
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

/** A row of `done`, as the statements read it. */
interface Done {
  attemptId: string;
  deliveryId: string;
  number: number;
  endpointId: string | null;
  merchantId: string;
  destination: string;
  startedAt: Date;
  durationMs: number;
  outcome: Exclude<WebhookAttemptOutcome, "IN_FLIGHT">;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  state: DeliveryState;
  lastError: string | null;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}

/** The finished attempts of a batch, from its JSON (doneRow). */
const doneRows = (done: string) =>
  sql<Done>`(SELECT * FROM jsonb_to_recordset(${done}::jsonb) AS d(
    attempt_id uuid, delivery_id uuid, number int, endpoint_id uuid, merchant_id uuid, destination uuid, started_at timestamp(3),
    duration_ms int, outcome "WebhookAttemptOutcome", status_code int, error text, response_excerpt text,
    state "DeliveryState", last_error text, delivered_at timestamp(3), next_attempt_at timestamp(3)))`;

/** A delivered attempt's outcome, as a literal. */
const DELIVERED = sql.lit("DELIVERED" as const);

/**
 * Each destination of the batch's attempts, and what they came to: any delivered, all delivered
 * within QUICK_MS, how many failed, and when the latest started.
 */
function byDestination(qb: QueryBuilder, done: string) {
  return qb
    .with("done", () => doneRows(done))
    .with("byDestination", (db) =>
      db
        .selectFrom("done")
        .select((eb) => [
          "destination",
          "merchantId",
          eb.fn.agg<boolean>("bool_or", [eb("outcome", "=", DELIVERED)]).as("delivered"),
          eb.fn
            .agg<boolean>("bool_and", [eb.and([eb("outcome", "=", DELIVERED), eb("durationMs", "<", sql.lit(QUICK_MS))])])
            .as("quick"),
          sql<number>`count(*) FILTER (WHERE outcome <> 'DELIVERED')::int`.as("failed"),
          eb.fn.max("startedAt").as("at"),
        ])
        .groupBy(["destination", "merchantId"]),
    );
}

/**
 * Records each attempt's outcome and moves its event on, and its destination's health
 * (destination.ts): the attempt, the event and the destination in one statement. A destination
 * where any attempt of the batch was delivered has no failures in a row; one where all failed has
 * that many more. Its row is written only when that changes, or whether it is quick, in id order: a
 * destination that keeps delivering is not a row every batch waits for. An event moves on only while
 * this attempt holds it: recorded again (after a lost answer), or after its lease lapsed and another
 * attempt took it, the statement leaves it as it is.
 */
const FINISH_ATTEMPTS = compiled((qb, param: Param<{ done: string }>) =>
  byDestination(qb, param("done"))
    .with("health", (db) =>
      db
        .insertInto("webhookDestination")
        .columns(["id", "merchantId", "failures", "quick", "updatedAt"])
        .expression(
          db
            .selectFrom("byDestination as b")
            .leftJoin("webhookDestination as o", "o.id", "b.destination")
            .select((eb) => [
              "b.destination",
              "b.merchantId",
              eb.case().when(eb.ref("b.delivered")).then(sql.lit(0)).else(eb.ref("b.failed")).end().as("failures"),
              "b.quick",
              "b.at",
            ])
            .where((eb) =>
              eb.or([
                eb("o.id", "is", null),
                eb.not(eb.ref("b.delivered")),
                eb("o.failures", ">", sql.lit(0)),
                eb("o.quick", "<>", eb.ref("b.quick")),
              ]),
            )
            .orderBy("b.destination"),
        )
        .onConflict((conflict) =>
          conflict.column("id").doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when("excluded.failures", "=", sql.lit(0))
              .then(sql.lit(0))
              .else(eb("webhookDestination.failures", "+", eb.ref("excluded.failures")))
              .end(),
            quick: eb.ref("excluded.quick"),
            updatedAt: eb.ref("excluded.updatedAt"),
          })),
        ),
    )
    .with("attempt", (db) =>
      db
        .updateTable("webhookAttempt as a")
        .from("done as d")
        .set((eb) => ({
          durationMs: eb.ref("d.durationMs"),
          outcome: eb.ref("d.outcome"),
          statusCode: eb.ref("d.statusCode"),
          error: eb.ref("d.error"),
          responseExcerpt: eb.ref("d.responseExcerpt"),
        }))
        .where((eb) => amongIds("a.id", eb.selectFrom("done").select("attemptId")))
        .whereRef("a.id", "=", "d.attemptId"),
    )
    .updateTable("delivery as e")
    .from("done as d")
    .set((eb) => ({
      state: eb.ref("d.state"),
      leaseUntil: null,
      enqueuedAt: null,
      lastError: eb.ref("d.lastError"),
      deliveredAt: eb.ref("d.deliveredAt"),
      nextAttemptAt: eb.fn.coalesce("d.nextAttemptAt", "e.nextAttemptAt"),
      updatedAt: sql<Date>`now()`,
    }))
    .where((eb) => amongIds("e.id", eb.selectFrom("done").select("deliveryId")))
    .whereRef("e.id", "=", "d.deliveryId")
    .whereRef("e.attempts", "=", "d.number")
    .where("e.leaseUntil", "is not", null),
);

interface HealthParams extends Record<string, unknown> {
  done: string;
  now: Date;
  /** An endpoint failing every attempt since before this is disabled. */
  failingBefore: Date;
}

/**
 * The batch's endpoints (`byEndpoint`: any attempt delivered, and the first failed one's start),
 * and those whose state changes (`changing`: they start or stop failing, or fail too long), locked
 * in id order.
 */
function changingEndpoints(qb: QueryBuilder, done: string, failingBefore: Date) {
  return qb
    .with("done", () => doneRows(done))
    .with("byEndpoint", (db) =>
      db
        .selectFrom("done")
        .select((eb) => [
          "endpointId",
          eb.fn.agg<boolean>("bool_or", [eb("outcome", "=", DELIVERED)]).as("delivered"),
          eb.fn.min("startedAt").as("firstFailedAt"),
        ])
        .where("endpointId", "is not", null)
        .groupBy("endpointId"),
    )
    .with("changing", (db) =>
      db
        .selectFrom("webhookEndpoint as ep")
        .innerJoin("byEndpoint as h", "h.endpointId", "ep.id")
        .select(["ep.id", "h.delivered", "h.firstFailedAt"])
        .where(
          sql<SqlBool>`CASE WHEN h.delivered THEN ep.failing_since IS NOT NULL
            ELSE ep.failing_since IS NULL OR (ep.enabled AND ep.failing_since <= ${failingBefore}::timestamp(3)) END`,
        )
        .orderBy("ep.id")
        .forNoKeyUpdate("ep"),
    );
}

/** Of an endpoint `ep` and its attempts `c` just finished: every one failed, and it has failed since before `failingBefore`. */
const failingTooLong = (failingBefore: Date) =>
  sql<SqlBool>`(NOT c.delivered AND COALESCE(ep.failing_since, c.first_failed_at) <= ${failingBefore}::timestamp(3))`;

/**
 * Moves the health of the batch's endpoints as of `now`: since when each has failed every attempt,
 * and, past the limit (failing since before `failingBefore`), disabled, its waiting deliveries
 * HELD. Only an endpoint whose state changes is written (it starts or stops failing, or is
 * disabled), its row locked in id order and FOR NO KEY UPDATE, which a payment's new delivery (its
 * foreign key's KEY SHARE) does not wait for: in the steady state (delivering, or failing for less
 * than the limit) no batch touches an endpoint, so batches do not queue on a busy endpoint's row.
 */
const ENDPOINT_HEALTH = compiled((qb, param: Param<HealthParams>) => {
  const [now, failingBefore] = [sql<Date>`${param("now")}::timestamp(3)`, param("failingBefore")];
  const tooLong = () => failingTooLong(failingBefore);
  return changingEndpoints(qb, param("done"), failingBefore)
    .with("health", (db) =>
      db
        .updateTable("webhookEndpoint as ep")
        .from("changing as c")
        .set({
          failingSince: sql`CASE WHEN c.delivered THEN NULL ELSE COALESCE(ep.failing_since, c.first_failed_at) END`,
          enabled: sql`ep.enabled AND NOT ${tooLong()}`,
          disabledAt: sql`CASE WHEN ep.enabled AND ${tooLong()} THEN ${now} ELSE ep.disabled_at END`,
          disabledReason: sql`CASE WHEN ep.enabled AND ${tooLong()}
            THEN 'every attempt failed since ' || to_char(COALESCE(ep.failing_since, c.first_failed_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            ELSE ep.disabled_reason END`,
          updatedAt: now,
        })
        .whereRef("ep.id", "=", "c.id")
        .returning(["ep.id", sql<boolean>`NOT ep.enabled AND ep.disabled_at = ${now}`.as("disabledNow")]),
    )
    .updateTable("delivery as e")
    .from("health as h")
    .set({ ...HELD, updatedAt: now })
    .where((eb) => eb.ref("h.disabledNow"))
    .whereRef("e.endpointId", "=", "h.id")
    .where(pending("e"))
    .where(notTestEvent("e"))
    .where("e.id", "not in", (eb) => eb.selectFrom("done").select("deliveryId"))
    .where(unleased("e", now));
});

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
