import { merchantScope, notFound, requireMerchantOrPayer } from "../auth.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { findRequestDetails, type RequestDetails } from "./aggregate.js";
import { requestIdCodes, requestInfoInput, type RequestInfoInput } from "./schemas.js";

/**
 * Reads a request by requestId or requestCode. Merchant keys see their own requests only;
 * payer keys (wallets, terminals) may read any request they were shown.
 */
export async function getRequest(ctx: DomainContext, input: RequestInfoInput): Promise<RequestDetails> {
  requireMerchantOrPayer(ctx);
  const { requestId, requestCode } = parseInput(requestInfoInput, requestIdCodes, input);
  const request = await findRequestDetails({ requestId, requestCode, ...merchantScope(ctx) });
  if (!request) throw notFound("REQUEST_NOT_FOUND");
  return request;
}
