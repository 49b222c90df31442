import { z } from "zod";
import { sql, type ExpressionBuilder } from "kysely";
import type { DB } from "../../generated/kysely/database.js";
import { database } from "../../db.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { notFound } from "../auth.js";
import type { DomainContext } from "../context.js";
import { RateLimitedError, StateConflictError } from "../errors.js";
import { outboxNotified } from "../events/record.js";
import { withIdempotencyRecord } from "../idempotency-keys.js";
import { instantText } from "../instants.js";
import { id, parseInput } from "../validation.js";
import { endpointOwner, type EndpointScope } from "../webhooks/endpoint-owner.js";
import { notTestEvent, pending, sendAgainAt, unleased } from "./states.js";

/** One recovery per endpoint in this long: each may queue thousands of deliveries. */
const RECOVERY_INTERVAL_MS = 60_000;

export const recoverInput = z.object({ endpointId: id, since: z.union([z.date(), instantText]) });
export type RecoverInput = z.input<typeof recoverInput>;

export interface Recovery {
  endpointId: string;
  /** How many deliveries were queued to be sent again. */
  queued: number;
}

/** The endpoint's row, locked against another recovery (and an update) until the transaction ends. */
const lockEndpoint = (trx: QueryBuilder, endpointId: string, { merchantId }: EndpointScope) =>
  trx
    .selectFrom("webhookEndpoint as ep")
    .select(["ep.enabled", "ep.recoveredAt"])
    .where("ep.id", "=", endpointId)
    .$if(merchantId !== undefined, (query) => query.where("ep.merchantId", "=", merchantId!))
    .forNoKeyUpdate()
    .executeTakeFirst();

/**
 * The endpoint's deliveries a recovery since `since` sends again, at `now`: not delivered, and of
 * an event made then or later or first attempted there then or later. An endpoint's `failingSince`
 * is its first failed attempt, a few milliseconds after the event that attempt carried was made, so
 * recovering since it must still include that event; the attempts are found by the index
 * (endpoint_id, started_at DESC). Those that gave up (EXHAUSTED, REFUSED) and those held while the
 * endpoint was disabled (HELD) are recovered, and those still retrying (PENDING after a failed
 * attempt, not in flight); test events are not.
 */
const recoverable = (endpointId: string, since: Date, now: Date) => (eb: ExpressionBuilder<DB & { e: DB["delivery"] }, "e">) =>
  eb.and([
    eb("e.endpointId", "=", endpointId),
    notTestEvent("e"),
    eb.or([
      eb("e.createdAt", ">=", since),
      eb(
        "e.id",
        "in",
        eb
          .selectFrom("webhookAttempt as a")
          .select("a.deliveryId")
          .where("a.endpointId", "=", endpointId)
          .where("a.startedAt", ">=", since)
          .where("a.number", "=", sql.lit(1)),
      ),
    ]),
    eb.or([
      eb("e.state", "in", [sql.lit("EXHAUSTED" as const), sql.lit("REFUSED" as const), sql.lit("HELD" as const)]),
      eb.and([pending("e"), eb("e.attempts", ">", sql.lit(0)), unleased("e", now)]),
    ]),
  ]);

/**
 * Sends the recoverable deliveries again, due `now` (those that gave up get exactly one more
 * attempt, as a redelivery does; held and retrying ones go on with the attempts their schedule had
 * left). Announced to the worker on commit; answers how many it queued.
 */
async function recoverDeliveries(trx: QueryBuilder, endpointId: string, since: Date, now: Date): Promise<number> {
  const { queued } = await trx
    .with("recovered", (db) =>
      db
        .updateTable("delivery as e")
        .set(sendAgainAt("e", now))
        .where(recoverable(endpointId, since, now))
        .returning("e.id"),
    )
    .selectFrom("recovered")
    .select([sql<number>`count(*)::int`.as("queued"), sql<boolean>`${sql.raw(outboxNotified("recovered"))} > 0`.as("announced")])
    .executeTakeFirstOrThrow();
  return queued;
}

/** How many deliveries a recovery of the endpoint since `since` would queue now (what a console shows before it asks). */
export async function countRecoverable(ctx: DomainContext, input: RecoverInput): Promise<number> {
  const { endpointId, since } = parseInput(recoverInput, { endpointId: "BAD_REQUEST", since: "BAD_REQUEST" }, input);
  const { merchantId } = endpointOwner(ctx);
  const owned = await database
    .selectFrom("webhookEndpoint as ep")
    .select("ep.id")
    .where("ep.id", "=", endpointId)
    .$if(merchantId !== undefined, (query) => query.where("ep.merchantId", "=", merchantId!))
    .executeTakeFirst();
  if (!owned) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  const { count } = await database
    .selectFrom("delivery as e")
    .select(sql<number>`count(*)::int`.as("count"))
    .where(recoverable(endpointId, since, ctx.now()))
    .executeTakeFirstOrThrow();
  return count;
}

/**
 * Sends again every delivery of one endpoint since `since` that was not delivered (of an event made
 * then or later, or first attempted then or later), as one call that answers how many it queued.
 * The endpoint must be enabled (a disabled one would hold them again). One recovery that queues
 * something per endpoint a minute (RATE_LIMIT_EXCEEDED, with when to retry): one that queues
 * nothing costs the service nothing, so it leaves the minute's recovery unused. Recoveries of one
 * endpoint take its row lock in turn, so of several at once only the first that queues anything
 * runs. With an idempotency key, a retry answers the first call's count and queues nothing more.
 */
export async function recoverWebhookDeliveries(ctx: DomainContext, input: RecoverInput): Promise<Recovery> {
  const { endpointId, since } = parseInput(recoverInput, { endpointId: "BAD_REQUEST", since: "BAD_REQUEST" }, input);
  const scope = endpointOwner(ctx);
  const now = ctx.now();
  const queued = await database.transaction().execute(async (trx) => {
    const endpoint = await lockEndpoint(trx, endpointId, scope);
    if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
    if (!endpoint.enabled)
      throw new StateConflictError(
        "WEBHOOK_ENDPOINT_DISABLED",
        "The endpoint is disabled: enable it, then recover its deliveries.",
      );
    const waitMs = endpoint.recoveredAt ? endpoint.recoveredAt.getTime() + RECOVERY_INTERVAL_MS - now.getTime() : 0;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RateLimitedError(seconds, `One recovery per endpoint a minute; retry in ${seconds} s.`);
    }
    const queued = await recoverDeliveries(trx, endpointId, since, now);
    await noteRecovery(trx, ctx, endpointId, now, queued);
    return queued;
  });
  ctx.logger.info({ endpointId, since, queued }, "webhook deliveries recovered");
  return { endpointId, queued };
}

/**
 * Records the recovery on its endpoint (and, with an idempotency key, on the key, in the same
 * statement): its count always (what a retry after a crash answers), its time only when it queued
 * something, since that time is what the rate limit counts from.
 */
async function noteRecovery(trx: QueryBuilder, ctx: DomainContext, endpointId: string, now: Date, queued: number) {
  await withIdempotencyRecord(trx, ctx, endpointId)
    .updateTable("webhookEndpoint as ep")
    .set((eb) => ({ recoveredAt: queued > 0 ? eb.val(now) : eb.ref("ep.recoveredAt"), recoveredCount: queued }))
    .where("ep.id", "=", endpointId)
    .execute();
}

/** A recovery as its endpoint last recorded it: what an idempotent retry answers after a crash. */
export async function lastRecovery(ctx: DomainContext, endpointId: string): Promise<Recovery> {
  const { merchantId } = endpointOwner(ctx);
  const endpoint = await database
    .selectFrom("webhookEndpoint as ep")
    .select((eb) => eb.fn.coalesce("ep.recoveredCount", sql.lit(0)).as("queued"))
    .where("ep.id", "=", endpointId)
    .$if(merchantId !== undefined, (query) => query.where("ep.merchantId", "=", merchantId!))
    .executeTakeFirst();
  if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  return { endpointId, queued: endpoint.queued };
}
