import { merchantScope, notFound, requireMerchantOrPayer } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { findRequestDetails, type RequestDetails } from "./aggregate.js";
import { normalizeShortCode } from "./request-code.js";
import { requestIdCodes, requestInfoInput, type RequestInfoInput } from "./schemas.js";

/**
 * Reads a request by requestId, requestCode or shortCode (as a person may type it: any case, with
 * or without dashes). Merchant keys see their own requests only; payer keys (wallets, terminals)
 * may read any request they were shown.
 */
export async function getRequest(ctx: DomainContext, input: RequestInfoInput): Promise<RequestDetails> {
  requireMerchantOrPayer(ctx);
  const { requestId, requestCode, shortCode } = parseInput(requestInfoInput, requestIdCodes, input);
  const typed = shortCode === undefined ? undefined : normalizeShortCode(shortCode);
  if (typed === null) throw notFound("REQUEST_NOT_FOUND");
  const { database } = await dashboardDatabase(ctx);
  const request = await findRequestDetails({ requestId, requestCode, shortCode: typed, ...merchantScope(ctx) }, database);
  if (!request) throw notFound("REQUEST_NOT_FOUND");
  return request;
}
