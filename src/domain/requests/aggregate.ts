import { pool, type Sql } from "../../db.js";
import type { PaymentOption, PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { listOf } from "../../sql/table.js";
import { queryRow, queryRows, statement, type RowOf, type Shape } from "../../sql/statements.js";
import { paymentOptions, paymentRequests, transactions } from "../../sql/tables.js";

/**
 * A payment request as every transport shows it: the request, its options in order and, once paid,
 * its purchase. Every read of it (info, lists, GraphQL, pay, cancel, create's repeat) selects
 * REQUEST_DETAILS and maps the row with `toRequestDetails`; the writes that return a request build
 * it from what they wrote.
 */
export type RequestDetails = PaymentRequest & { options: PaymentOption[]; purchase: Transaction | null };

/**
 * The select list of a request `r` with its options and purchase, in one row, and the columns it
 * gives (for statements that select more beside it).
 */
export const REQUEST_DETAILS = `
  ${paymentRequests.json("r")} AS request,
  (SELECT ${paymentOptions.jsonList("o", "o.index")} FROM payment_option o WHERE o.request_id = r.id) AS options,
  (SELECT ${transactions.jsonList("t")} FROM "transaction" t WHERE t.request_id = r.id AND t.type = 'PURCHASE') AS purchases`;
export const requestDetailsColumns = {
  request: paymentRequests,
  options: listOf(paymentOptions),
  purchases: listOf(transactions),
} satisfies Shape;

type RequestDetailsRow = RowOf<typeof requestDetailsColumns>;

/** The request of a row that selected REQUEST_DETAILS (decoded by its shape). */
export function toRequestDetails({ request, options, purchases }: RequestDetailsRow): RequestDetails {
  return { ...request, options, purchase: purchases[0] ?? null };
}

const WHERE_MERCHANT = `($2::uuid IS NULL OR r.merchant_id = $2)`;
const BY_ID = statement(
  `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.id = $1 AND ${WHERE_MERCHANT}`,
  requestDetailsColumns,
);
const BY_CODE = statement(
  `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.request_code = $1 AND ${WHERE_MERCHANT}`,
  requestDetailsColumns,
);
const BY_SHORT_CODE = statement(
  `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.short_code = $1 AND ${WHERE_MERCHANT}`,
  requestDetailsColumns,
);
const BY_IDS = statement(
  `SELECT ${REQUEST_DETAILS} FROM unnest($1::uuid[]) WITH ORDINALITY AS wanted(id, position)
   JOIN payment_request r ON r.id = wanted.id ORDER BY wanted.position`,
  requestDetailsColumns,
);

/** Which request: by id, requestCode or shortCode (exactly one), optionally only if it is one merchant's. */
export type RequestLookup = { requestId?: string; requestCode?: string; shortCode?: string; merchantId?: string };

/** A request by id, requestCode or shortCode, optionally only if it is one merchant's. */
export async function findRequestDetails(where: RequestLookup, sql: Sql = pool): Promise<RequestDetails | null> {
  const merchantId = where.merchantId ?? null;
  const row = where.requestId
    ? await queryRow(sql, BY_ID, [where.requestId, merchantId])
    : where.requestCode !== undefined
      ? await queryRow(sql, BY_CODE, [where.requestCode, merchantId])
      : await queryRow(sql, BY_SHORT_CODE, [where.shortCode, merchantId]);
  return row ? toRequestDetails(row) : null;
}

/** Requests by id, in the order of `ids` (those that do not exist are left out). */
export async function findRequestDetailsByIds(ids: readonly string[], sql: Sql = pool): Promise<RequestDetails[]> {
  if (ids.length === 0) return [];
  return (await queryRows(sql, BY_IDS, [ids])).map(toRequestDetails);
}
