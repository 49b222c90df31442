import { sql, type RawBuilder } from "kysely";
/** An ISO 8601 UTC text, with milliseconds, of a timestamp(3) column (stored as UTC). */
const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The `request` object of a cancellation or expiry event, built by the statement that changes the
 * request, from the row it returns (`alias`): the request as requests.info answers a merchant key,
 * without its payment options and addresses (qrCode, notifyUrl, redirectUrl). Optional fields
 * are left out when absent, as REST answers leave them.
 */
export function requestObjectSql(alias: string, status: "cancelled" | "expired"): string {
  const a = (column: string) => `${alias}.${column}`;
  return `jsonb_strip_nulls(jsonb_build_object(
    'requestId', ${a("id")}, 'merchantId', ${a("merchant_id")}, 'clientId', ${a("client_id")},
    'externalReference', ${a("external_reference")},
    'denomination', jsonb_build_object('amount', ${a("amount")}, 'asset', ${a("asset")}),
    'requestCode', ${a("request_code")}, 'shortCode', ${a("short_code")}, 'description', ${a("description")},
    'status', '${status}', 'createdAt', ${iso(a("created_at"))}, 'updatedAt', ${iso(a("updated_at"))},
    'expiresAt', ${iso(a("expires_at"))}))`;
}

/**
 * The events of the requests a write statement's CTE `cte` changed and returned (`RETURNING *`),
 * as the source of `newEventsInsert`: `request.cancelled` or `request.expired`, dated when changed.
 */
export function requestChangeEvents(cte: "cancelled" | "expired"): RawBuilder<unknown> {
  const type = cte === "cancelled" ? "REQUEST_CANCELLED" : "REQUEST_EXPIRED";
  return sql`SELECT x.merchant_id, x.id AS request_id, NULL::uuid AS transaction_id, ${sql.lit(type)} AS type,
                    ${sql.raw(requestObjectSql("x", cte))} AS payload, x.updated_at AS created_at FROM ${sql.table(cte)} x`;
}
