import { isDeepStrictEqual } from "node:util";
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
  const request =
    query && !detailsAnswer(query)
      ? await db.paymentRequest.findFirst({ ...query, where })
      : await findRequestDetails({ requestId, requestCode, ...merchantScope(ctx) });
  if (!request) throw notFound("REQUEST_NOT_FOUND");
  // With a resolver's query the relations are whatever it selected.
  return request as RequestDetails;
}

/** The relations findRequestDetails reads, as a resolver's include may ask for them. */
const DETAILS_RELATIONS: Record<string, unknown[]> = {
  options: [true, { orderBy: { index: "asc" } }],
  // A request has at most one purchase (a unique index), so `take: 1` changes nothing.
  transactions: [{ where: { type: "PURCHASE" } }, { where: { type: "PURCHASE" }, take: 1 }],
};

/**
 * Whether a request as findRequestDetails reads it (one SQL statement, as requests.info uses; and
 * as create, pay and cancel return it) holds everything a resolver's query asks for. GraphQL's
 * usual selections of a request (its options, its purchase) do; anything more goes through
 * Prisma with the resolver's query.
 */
export function detailsAnswer(query: RequestQuery): boolean {
  if (Object.keys(query).some((key) => key !== "include")) return false;
  return Object.entries(query.include ?? {}).every(([relation, wanted]) =>
    (DETAILS_RELATIONS[relation] ?? []).some((offered) => isDeepStrictEqual(offered, wanted)),
  );
}
