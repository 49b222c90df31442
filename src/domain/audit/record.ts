import type { Tx } from "../../db.js";
import type { Actor, DomainContext } from "../context.js";

export type ActivityAction =
  | "request.created"
  | "request.paid"
  | "request.cancelled"
  | "request.expired"
  | "transaction.refunded"
  | "key.created"
  | "key.revoked";

/** How an actor is named in the audit trail: the key prefix, `operator` or `system`. */
export function actorName(actor: Actor): string {
  return actor.kind === "operator" ? "operator" : actor.keyPrefix;
}

/**
 * Appends one activity, in the caller's transaction so it exists exactly when the change does.
 * Only changes that happened are recorded; a failed call changes nothing, the trail included.
 * A change made under an idempotency key also notes, on the key's claim, the entity it produced
 * (the refund for a refund, else the request), so a retry after a crash finds it.
 */
export async function recordActivity(
  tx: Tx,
  ctx: DomainContext,
  activity: { action: ActivityAction; merchantId?: string | null; requestId?: string; transactionId?: string; outcome: string },
): Promise<void> {
  await tx.activity.create({
    data: {
      action: activity.action,
      actor: actorName(ctx.actor),
      correlationId: ctx.requestId,
      merchantId: activity.merchantId ?? null,
      requestId: activity.requestId ?? null,
      transactionId: activity.transactionId ?? null,
      outcome: activity.outcome,
      createdAt: ctx.now(),
    },
  });
  const entityId = activity.action === "transaction.refunded" ? activity.transactionId : activity.requestId;
  if (ctx.idempotencyClaim && entityId) {
    const { scope, key } = ctx.idempotencyClaim;
    await tx.$executeRaw`UPDATE idempotency_key SET entity_id = ${entityId}::uuid WHERE api_key_prefix = ${scope} AND key = ${key}`;
  }
}
