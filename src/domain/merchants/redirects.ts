import { pool } from "../../db.js";
import { queryRow, statement } from "../../sql/statements.js";
import { merchants } from "../../sql/tables.js";
import { notFound, requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { allowRedirectsCodes, allowRedirectsInput, type AllowRedirectsInput } from "./schemas.js";

const SET_ALLOWED_REDIRECTS = statement(
  `UPDATE merchant SET allowed_redirect_urls = $2, updated_at = now() WHERE id = $1
   RETURNING allowed_redirect_urls AS "allowedRedirectUrls"`,
  merchants.pick("allowedRedirectUrls").columns,
);

/**
 * Sets the URLs a merchant's requests may name as their redirectUrl (each allows the addresses that
 * start with it, on its own origin): the list replaces the previous one, and an empty list allows none.
 */
export async function allowRedirects(ctx: DomainContext, input: AllowRedirectsInput) {
  requireOperator(ctx);
  const { merchantId, urls } = parseInput(allowRedirectsInput, allowRedirectsCodes, input);
  const merchant = await queryRow(pool, SET_ALLOWED_REDIRECTS, [merchantId, [...new Set(urls)]]);
  if (!merchant) throw notFound("MERCHANT_NOT_FOUND");
  return { merchantId, allowedRedirectUrls: merchant.allowedRedirectUrls };
}
