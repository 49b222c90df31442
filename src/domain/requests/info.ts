import { db } from "../../db.js";
import { merchantScope, notFound, requireMerchantOrPayer } from "../auth.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import type { RequestDetails, RequestQuery } from "./details.js";
import { findRequestDetails } from "./find-details.js";
import { requestIdCodes, requestInfoInput, type RequestInfoInput } from "./schemas.js";

/**
 * Reads a request by requestId or requestCode. Merchant keys see their own requests only;
 * payer keys (wallets, terminals) may read any request they were shown.
 */
export async function getRequest(ctx: DomainContext, input: RequestInfoInput, query?: RequestQuery): Promise<RequestDetails> {
  requireMerchantOrPayer(ctx);
  const { requestId, requestCode } = parseInput(requestInfoInput, requestIdCodes, input);
  const where = { ...(requestId ? { id: requestId } : { requestCode }), ...merchantScope(ctx) };
  const request = query
    ? await db.paymentRequest.findFirst({ ...query, where })
    : await findRequestDetails({ requestId, requestCode, ...merchantScope(ctx) });
  if (!request) throw notFound("REQUEST_NOT_FOUND");
  // With a resolver's query the relations are whatever it selected.
  return request as RequestDetails;
}
