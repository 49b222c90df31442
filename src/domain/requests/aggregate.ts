import { sql } from "kysely";
import { database } from "../../db.js";
import type { PaymentOption, PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { compiled } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { fromRowJson, fromRowsJson, rowJson, rowsJson } from "../../sql/rows.js";

/**
 * A payment request as every transport shows it: the request, its options in order and, once paid,
 * its purchase. Every read of it (info, lists, GraphQL, pay, cancel, create's repeat) selects
 * REQUEST_DETAILS and maps the row with `toRequestDetails`; the writes that return a request build
 * it from what they wrote.
 */
export type RequestDetails = PaymentRequest & { options: PaymentOption[]; purchase: Transaction | null };

/**
 * A request `r` with its options and purchase, as `requestDetails` selects it: three JSON values
 * (each column of a row costs pg a field to describe and parse on every call; JSON.parse reads a
 * row whole).
 */
export type DetailsRow = { request: unknown; options: unknown; purchases: unknown };

/** The select list of a request `r`: the request, its options in order, its purchase (none or one). */
export const requestDetails = [
  rowJson("paymentRequest", "r").as("request"),
  rowsJson("paymentOption", sql`x.request_id = r.id`, "x.index").as("options"),
  rowsJson("transaction", sql`x.request_id = r.id AND x.type = 'PURCHASE'`).as("purchases"),
] as const;

/** The request of a row that selected `requestDetails`; what else the row holds stays beside it. */
export function requestFromRow<R extends DetailsRow>({
  request,
  options,
  purchases,
  ...rest
}: R): Omit<R, keyof DetailsRow> & RequestDetails {
  return {
    ...rest,
    ...fromRowJson("paymentRequest", request),
    options: fromRowsJson("paymentOption", options),
    purchase: fromRowsJson("transaction", purchases)[0] ?? null,
  };
}

type Lookup = { value: string; merchantId: string | null };
const requestWhere = (column: "id" | "requestCode" | "shortCode") =>
  compiled<Lookup, DetailsRow>((qb, param) =>
    qb
      .selectFrom("paymentRequest as r")
      .select(requestDetails)
      .where(`r.${column}`, "=", param("value"))
      .where((eb) =>
        eb.or([
          eb(eb.cast(eb.val(param("merchantId")), "uuid"), "is", null),
          eb("r.merchantId", "=", eb.val(param("merchantId"))),
        ]),
      ),
  );
const BY = { requestId: requestWhere("id"), requestCode: requestWhere("requestCode"), shortCode: requestWhere("shortCode") };

const BY_IDS = compiled<{ ids: readonly string[] }, DetailsRow>((qb, param) =>
  qb
    .selectFrom(
      sql<{ id: string; position: number }>`unnest(${param("ids")}::uuid[]) WITH ORDINALITY`.as<"wanted">(
        sql`wanted(id, position)`,
      ),
    )
    .innerJoin("paymentRequest as r", "r.id", "wanted.id")
    .select(requestDetails)
    .orderBy("wanted.position"),
);

/** Which request: by id, requestCode or shortCode (exactly one), optionally only if it is one merchant's. */
export type RequestLookup = { requestId?: string; requestCode?: string; shortCode?: string; merchantId?: string };

/** A request by id, requestCode or shortCode, optionally only if it is one merchant's. */
export async function findRequestDetails(where: RequestLookup, qb: QueryBuilder = database): Promise<RequestDetails | null> {
  const merchantId = where.merchantId ?? null;
  const [row] = where.requestId
    ? await BY.requestId(qb, { value: where.requestId, merchantId })
    : where.requestCode !== undefined
      ? await BY.requestCode(qb, { value: where.requestCode, merchantId })
      : await BY.shortCode(qb, { value: where.shortCode ?? "", merchantId });
  return row ? requestFromRow(row) : null;
}

/** Requests by id, in the order of `ids` (those that do not exist are left out). */
export async function findRequestDetailsByIds(ids: readonly string[], qb: QueryBuilder = database): Promise<RequestDetails[]> {
  if (ids.length === 0) return [];
  return (await BY_IDS(qb, { ids })).map(requestFromRow);
}
