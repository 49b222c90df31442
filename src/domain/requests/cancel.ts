import { pool, StatementParams } from "../../db.js";
import { bigint, boolean } from "../../sql/columns.js";
import { currentTraceparent } from "../../tracing.js";
import { queryRow, rowShape } from "../../sql/statements.js";
import { activityParts } from "../audit/record.js";
import { notFound, requireMerchant } from "../auth.js";
import { ENDPOINT_DELIVERIES, eventParts, outboxNotified } from "../events/record.js";
import { requestObjectSql } from "../events/request-object.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import {
  findRequestDetails,
  REQUEST_DETAILS,
  requestDetailsColumns,
  toRequestDetails,
  type RequestDetails,
} from "./aggregate.js";
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
  const { text, values } = cancelStatement(ctx, requestId, merchantId, now);
  const row = await queryRow(pool, { text, shape: cancelledRow }, values);
  if (!row) throw notFound("REQUEST_NOT_FOUND");
  // The read beside the update sees the request as the statement began.
  const request = toRequestDetails(row);
  if (row.cancelled) {
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

const cancelledRow = rowShape({ ...requestDetailsColumns, cancelled: boolean(), queued: bigint() });

function cancelStatement(ctx: DomainContext, requestId: string, merchantId: string, now: Date) {
  const p = new StatementParams();
  const id = p.add(requestId);
  const merchant = p.add(merchantId);
  const at = p.add(now);
  const parts = [
    `cancelled AS (
       UPDATE payment_request SET status = 'CANCELLED', updated_at = ${at}::timestamp(3)
       WHERE id = ${id}::uuid AND merchant_id = ${merchant}::uuid AND status = 'NEW' AND expires_at > ${at}::timestamp(3)
       RETURNING *)`,
    ...activityParts(p, ctx, { action: "request.cancelled", merchantId, requestId, outcome: "CANCELLED" }, "cancelled"),
    ...eventParts(
      `SELECT c.merchant_id, c.id AS request_id, NULL::uuid AS transaction_id, 'REQUEST_CANCELLED' AS type,
              ${requestObjectSql("c", "cancelled")} AS payload, c.updated_at AS created_at FROM cancelled c`,
      { correlationId: `${p.add(ctx.requestId)}::text`, traceparent: `${p.add(currentTraceparent())}::text` },
    ),
  ];
  return {
    text: `WITH ${parts.join(",\n")}
           SELECT ${REQUEST_DETAILS}, EXISTS (SELECT 1 FROM cancelled) AS cancelled,
                  ${outboxNotified(ENDPOINT_DELIVERIES)} AS queued
           FROM payment_request r WHERE r.id = ${id}::uuid AND r.merchant_id = ${merchant}::uuid`,
    values: p.values,
  };
}
