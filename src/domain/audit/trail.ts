import { sql } from "kysely";
import { compiled, type Param } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type Actor, type DomainContext } from "../context.js";

export type ActivityAction =
  | "request.created"
  | "request.paid"
  | "request.cancelled"
  | "request.expired"
  | "transaction.refunded"
  | "key.created"
  | "key.revoked"
  | "key.rolled";

export interface NewActivity {
  action: ActivityAction;
  merchantId?: string | null;
  requestId?: string;
  transactionId?: string;
  outcome: string;
}

/** What a write statement needs of the call that makes it. */
export type WriteContext = Pick<DomainContext, "actor" | "requestId" | "now" | "idempotencyClaim">;

/** How an actor is named in the audit trail: the key prefix or `operator` (the worker's expiries are `system`). */
export function actorName(actor: Actor): string {
  return actor.kind === "operator" ? "operator" : actor.keyPrefix;
}

/** The values of the activity a write statement appends (`activityInsert`). */
export interface ActivityParams {
  activityMerchantId: string | null;
  activityRequestId: string | null;
  activityTransactionId: string | null;
  action: ActivityAction;
  actor: string;
  correlationId: string | null;
  outcome: string;
  at: Date;
}

export const activityParams = (ctx: WriteContext, activity: NewActivity): ActivityParams => ({
  activityMerchantId: activity.merchantId ?? null,
  activityRequestId: activity.requestId ?? null,
  activityTransactionId: activity.transactionId ?? null,
  action: activity.action,
  actor: actorName(ctx.actor),
  correlationId: ctx.requestId,
  outcome: activity.outcome,
  at: ctx.now(),
});

/**
 * The part of a write statement (a CTE's body) that appends its activity, so it exists exactly when
 * the change does. With `when`, the name of an earlier CTE, only if that CTE returned a row.
 */
export function activityInsert(qb: QueryBuilder, param: Param<ActivityParams>, when?: string) {
  const row = {
    id: sql<string>`gen_random_uuid()`,
    merchantId: param("activityMerchantId"),
    requestId: param("activityRequestId"),
    transactionId: param("activityTransactionId"),
    action: param("action"),
    actor: param("actor"),
    correlationId: param("correlationId"),
    outcome: param("outcome"),
    createdAt: param("at"),
  };
  if (!when) return qb.insertInto("activity").values(row);
  return qb
    .insertInto("activity")
    .columns(["id", "merchantId", "requestId", "transactionId", "action", "actor", "correlationId", "outcome", "createdAt"])
    .expression(
      sql`SELECT ${row.id}, ${row.merchantId}::uuid, ${row.requestId}::uuid, ${row.transactionId}::uuid, ${row.action}::text,
                 ${row.actor}::text, ${row.correlationId}::text, ${row.outcome}::text, ${row.createdAt}::timestamp(3)
          FROM ${sql.table(when)}`,
    );
}

const ACTIVITY = compiled<ActivityParams, never>((qb, param) => activityInsert(qb, param));

/** Appends one activity in the caller's transaction (key changes, which carry no idempotency record). */
export async function recordActivity(qb: QueryBuilder, ctx: DomainContext, activity: NewActivity): Promise<void> {
  await ACTIVITY(qb, activityParams(ctx, activity));
}

/** The audit trail of one of the calling merchant's requests, oldest first. */
export async function requestActivities(ctx: DomainContext, requestId: string) {
  const { merchantId } = requireMerchant(ctx);
  const { database } = await dashboardDatabase(ctx);
  return database
    .selectFrom("activity")
    .selectAll()
    .where("requestId", "=", requestId)
    .where("merchantId", "=", merchantId)
    .orderBy("createdAt")
    .orderBy("seq")
    .execute();
}
