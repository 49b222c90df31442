import { database } from "../../db.js";
import { notFound, requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { allowRedirectsCodes, allowRedirectsInput, type AllowRedirectsInput } from "./schemas.js";

/**
 * Sets the URLs a merchant's requests may name as their redirectUrl (each allows the addresses that
 * start with it, on its own origin): the list replaces the previous one, and an empty list allows none.
 * The change's time is the context's clock, as a UTC Date (PostgreSQL's now() would be written in
 * the session's zone into the zone-less column).
 */
export async function allowRedirects(ctx: DomainContext, input: AllowRedirectsInput) {
  requireOperator(ctx);
  const { merchantId, urls } = parseInput(allowRedirectsInput, allowRedirectsCodes, input);
  const merchant = await database
    .updateTable("merchant")
    .set({ allowedRedirectUrls: [...new Set(urls)], updatedAt: ctx.now() })
    .where("id", "=", merchantId)
    .returning("allowedRedirectUrls")
    .executeTakeFirst();
  if (!merchant) throw notFound("MERCHANT_NOT_FOUND");
  return { merchantId, allowedRedirectUrls: merchant.allowedRedirectUrls };
}
