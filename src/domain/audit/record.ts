import { randomUUID } from "node:crypto";
import { StatementParams } from "../../db.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import type { Actor, DomainContext } from "../context.js";

export type ActivityAction =
  | "request.created"
  | "request.paid"
  | "request.cancelled"
  | "request.expired"
  | "transaction.refunded"
  | "key.created"
  | "key.revoked";

export interface NewActivity {
  action: ActivityAction;
  merchantId?: string | null;
  requestId?: string;
  transactionId?: string;
  outcome: string;
}

/** What a write statement needs of the call that makes it. */
export type WriteContext = Pick<DomainContext, "actor" | "requestId" | "now" | "writeIdempotencyRecord">;

/** How an actor is named in the audit trail: the key prefix, `operator` or `system`. */
export function actorName(actor: Actor): string {
  return actor.kind === "operator" ? "operator" : actor.keyPrefix;
}

/**
 * The parts of a write statement (its CTEs) that append one activity, so it exists exactly when the
 * change does. Only changes that happened are recorded: with `when`, the name of an earlier CTE, the
 * activity is written only if that CTE returned a row. The call's idempotency record, if it carries
 * a key, is written beside it with the entity the change produced (the refund for a refund, else
 * the request).
 */
export function activityParts(p: StatementParams, ctx: WriteContext, activity: NewActivity, when?: string): string[] {
  const gate = when ? ` FROM ${when}` : "";
  const parts = [
    `activity AS (
       INSERT INTO activity (id, merchant_id, request_id, transaction_id, action, actor, correlation_id, outcome, created_at)
       SELECT gen_random_uuid(), ${p.add(activity.merchantId ?? null)}::uuid, ${p.add(activity.requestId ?? null)}::uuid,
              ${p.add(activity.transactionId ?? null)}::uuid, ${p.add(activity.action)}::text, ${p.add(actorName(ctx.actor))}::text,
              ${p.add(ctx.requestId)}::text, ${p.add(activity.outcome)}::text, ${p.add(ctx.now())}::timestamp(3)${gate})`,
  ];
  const entityId = activity.action === "transaction.refunded" ? activity.transactionId : activity.requestId;
  if (ctx.writeIdempotencyRecord && entityId) parts.push(ctx.writeIdempotencyRecord(p, entityId, when));
  return parts;
}

/** Appends one activity in the caller's transaction (key changes, which carry no idempotency record). */
export async function recordActivity(qb: QueryBuilder, ctx: DomainContext, activity: NewActivity): Promise<void> {
  await qb
    .insertInto("activity")
    .values({
      id: randomUUID(),
      merchantId: activity.merchantId ?? null,
      requestId: activity.requestId ?? null,
      transactionId: activity.transactionId ?? null,
      action: activity.action,
      actor: actorName(ctx.actor),
      correlationId: ctx.requestId,
      outcome: activity.outcome,
      createdAt: ctx.now(),
    })
    .execute();
}
