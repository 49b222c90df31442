import { db } from "../../db.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { recordActivity } from "../audit/record.js";
import { requestDetails, type RequestDetails } from "./details.js";
import { cancelRequestInput, requestIdCodes, type CancelRequestInput } from "./schemas.js";
import { announceRequestChange } from "./changes.js";
import { assertOpen } from "./status.js";

/**
 * Cancels an open request of the calling merchant. The conditional update is the whole decision,
 * so a cancel racing a pay either wins or reports the state the pay left.
 */
export async function cancelRequest(ctx: DomainContext, input: CancelRequestInput): Promise<RequestDetails> {
  const { merchantId } = requireMerchant(ctx);
  const { requestId } = parseInput(cancelRequestInput, requestIdCodes, input);
  const now = ctx.now();
  const cancelled = await db.$transaction(async (tx) => {
    const result = await tx.paymentRequest.updateMany({
      where: { id: requestId, merchantId, status: "NEW", expiresAt: { gt: now } },
      data: { status: "CANCELLED", updatedAt: now },
    });
    if (result.count === 1)
      await recordActivity(tx, ctx, { action: "request.cancelled", merchantId, requestId, outcome: "CANCELLED" });
    return result;
  });
  const request = await db.paymentRequest.findFirst({ where: { id: requestId, merchantId }, include: requestDetails });
  if (!request) throw notFound("REQUEST_NOT_FOUND");
  if (cancelled.count === 0) {
    assertOpen(request, now);
    throw new Error(`request ${requestId} is open but was not cancelled`);
  }
  announceRequestChange({ merchantId, requestId, change: "CANCELLED" });
  return request;
}
