import { sql } from "kysely";
import { database } from "../../db.js";
import { compiled } from "../../sql/compiled.js";
import { currentTraceparent } from "../../tracing.js";
import { activityInsert, activityParams, type ActivityParams } from "../audit/trail.js";
import { notFound, requireMerchant } from "../auth.js";
import { endpointDeliveriesInsert, newEventsInsert, notified, type CallParams } from "../events/record.js";
import { requestChangeEvents } from "../events/request-object.js";
import type { DomainContext } from "../context.js";
import { idempotencyRecordParams, idempotencyRecordUpdate, type IdempotencyRecordParams } from "../idempotency-keys.js";
import { parseInput } from "../validation.js";
import { findRequestDetails, requestFromRow, requestDetails, type DetailsRow, type RequestDetails } from "./aggregate.js";
import { announceRequestChange } from "./changes.js";
import { cancelRequestInput, requestIdCodes, type CancelRequestInput } from "./schemas.js";
import { assertOpen } from "./status.js";

/**
 * Cancels an open request of the calling merchant, in one statement: the conditional update is the
 * whole decision (so a cancel racing a pay either wins or reports the state the pay left), the
 * activity and the `request.cancelled` event are written only if it happened, and the request is
 * read beside it.
 */
export async function cancelRequest(ctx: DomainContext, input: CancelRequestInput): Promise<RequestDetails> {
  const { merchantId } = requireMerchant(ctx);
  const { requestId } = parseInput(cancelRequestInput, requestIdCodes, input);
  const now = ctx.now();
  const [row] = await CANCEL(database, cancelParams(ctx, requestId, merchantId, now));
  if (!row) throw notFound("REQUEST_NOT_FOUND");
  // The read beside the update sees the request as the statement began.
  const { cancelled, queued: _queued, ...request } = requestFromRow(row);
  if (cancelled) {
    announceRequestChange({ merchantId, requestId, change: "CANCELLED" });
    return { ...request, status: "CANCELLED", updatedAt: now };
  }
  assertOpen(request, now);
  // Open as the statement began, yet not cancelled: a pay (or the sweep) committed while the update
  // waited for its lock. Read it again, as that left it.
  const current = await findRequestDetails({ requestId, merchantId });
  if (!current) throw notFound("REQUEST_NOT_FOUND");
  assertOpen(current, now);
  throw new Error(`request ${requestId} is open but was not cancelled`);
}

type CancelParams = { requestId: string; merchantId: string } & ActivityParams & IdempotencyRecordParams & CallParams;

const cancelParams = (ctx: DomainContext, requestId: string, merchantId: string, now: Date): CancelParams => ({
  requestId,
  merchantId,
  ...activityParams({ ...ctx, now: () => now }, { action: "request.cancelled", merchantId, requestId, outcome: "CANCELLED" }),
  ...idempotencyRecordParams(ctx.idempotencyClaim, requestId),
  traceparent: currentTraceparent(),
});

const CANCEL = compiled<CancelParams, DetailsRow & { cancelled: boolean; queued: number }>((qb, param) =>
  qb
    .with("cancelled", () =>
      qb
        .updateTable("paymentRequest")
        .set({ status: "CANCELLED", updatedAt: param("at") })
        .where("id", "=", param("requestId"))
        .where("merchantId", "=", param("merchantId"))
        .where("status", "=", "NEW")
        .where("expiresAt", ">", param("at"))
        .returningAll(),
    )
    .with("activity", () => activityInsert(qb, param, "cancelled"))
    .with("claim", () => idempotencyRecordUpdate(qb, param, sql<boolean>`EXISTS (SELECT 1 FROM cancelled)`))
    .with("newEvents", () => newEventsInsert(qb, requestChangeEvents("cancelled")))
    .with("endpointDeliveries", () => endpointDeliveriesInsert(qb, param))
    .selectFrom("paymentRequest as r")
    .select(requestDetails)
    .select([sql<boolean>`EXISTS (SELECT 1 FROM cancelled)`.as("cancelled"), notified("endpoint_deliveries").as("queued")])
    .where("r.id", "=", param("requestId"))
    .where("r.merchantId", "=", param("merchantId")),
);
