import type { DomainContext } from "../context.js";
import { ForbiddenError, NotFoundError } from "../errors.js";

/** Whose endpoints a call reaches: a merchant key its own merchant's; an operator any (or the one named). */
export interface EndpointScope {
  merchantId?: string;
}

/**
 * The scope of a call on webhook endpoints and their deliveries. A merchant key reaches only its own
 * merchant's (naming another is MERCHANT_NOT_FOUND, as for any other merchant's data); the
 * operator CLI reaches any; a payer key none.
 */
export function endpointOwner(ctx: DomainContext, merchantId?: string): EndpointScope {
  const { actor } = ctx;
  if (actor.kind === "payer") throw new ForbiddenError("FORBIDDEN", "Only a merchant key may do this.");
  if (actor.kind === "operator") return merchantId ? { merchantId } : {};
  if (merchantId !== undefined && merchantId !== actor.merchantId)
    throw new NotFoundError("MERCHANT_NOT_FOUND", "No such merchant.");
  return { merchantId: actor.merchantId };
}
