import { fromUtcText, pool, prepared, type Sql } from "../../db.js";
import type { PaymentMethod, PaymentOption, PaymentRequest, RequestStatus, Transaction } from "../../generated/prisma/client.js";
import { toTransaction, transactionJson, type TransactionJson } from "../transactions/rows.js";

/**
 * A payment request as every transport shows it: the request, its options in order and, once paid,
 * its purchase. Reads, and the writes that return a request, build it
 * with `toRequestDetails` from one statement's row (or, for a write, from what it wrote).
 */
export type RequestDetails = PaymentRequest & { options: PaymentOption[]; purchase: Transaction | null };

/** The request as REQUEST_JSON selects it: amounts as text, timestamps as zone-less UTC text. */
export interface RequestJson {
  id: string;
  merchantId: string;
  clientId: string | null;
  externalReference: string | null;
  asset: string;
  amount: string;
  requestCode: string;
  shortCode: string;
  description: string | null;
  status: RequestStatus;
  paymentExpirySeconds: number;
  expiresAt: string;
  notifyUrl: string | null;
  redirectUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** SQL for one JSON object of the request row `r`, in the shape of RequestJson. */
export const REQUEST_JSON = `json_build_object(
    'id', r.id, 'merchantId', r.merchant_id, 'clientId', r.client_id, 'externalReference', r.external_reference,
    'asset', r.asset, 'amount', r.amount::text, 'requestCode', r.request_code, 'shortCode', r.short_code,
    'description', r.description,
    'status', r.status, 'paymentExpirySeconds', r.payment_expiry_seconds, 'expiresAt', r.expires_at,
    'notifyUrl', r.notify_url, 'redirectUrl', r.redirect_url, 'createdAt', r.created_at, 'updatedAt', r.updated_at)`;

export function toRequest(json: RequestJson): PaymentRequest {
  return {
    ...json,
    amount: BigInt(json.amount),
    expiresAt: fromUtcText(json.expiresAt),
    createdAt: fromUtcText(json.createdAt),
    updatedAt: fromUtcText(json.updatedAt),
  };
}

interface OptionJson {
  id: string;
  requestId: string;
  index: number;
  ledgerId: string;
  amount: string;
  account: string | null;
  methods: PaymentMethod[];
}

/** One row of REQUEST_DETAILS. */
export interface RequestDetailsRow {
  request: RequestJson;
  options: OptionJson[];
  purchases: TransactionJson[];
}

/**
 * The select list of a request `r` with its options and purchase, in one row: the one read of the
 * aggregate, which requests.info, GraphQL, lists, pay and cancel all use.
 */
export const REQUEST_DETAILS = `
  ${REQUEST_JSON} AS request,
  (SELECT coalesce(json_agg(json_build_object(
            'id', o.id, 'requestId', o.request_id, 'index', o.index, 'ledgerId', o.ledger_id,
            'amount', o.amount::text, 'account', o.account, 'methods', o.methods) ORDER BY o.index), '[]')
   FROM payment_option o WHERE o.request_id = r.id) AS options,
  (SELECT coalesce(json_agg(${transactionJson("t")}), '[]')
   FROM "transaction" t WHERE t.request_id = r.id AND t.type = 'PURCHASE') AS purchases`;

export function toRequestDetails({ request, options, purchases }: RequestDetailsRow): RequestDetails {
  return {
    ...toRequest(request),
    options: options.map((option) => ({ ...option, amount: BigInt(option.amount) })),
    purchase: purchases[0] ? toTransaction(purchases[0]) : null,
  };
}

const BY_ID = `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.id = $1 AND ($2::uuid IS NULL OR r.merchant_id = $2)`;
const BY_CODE = `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.request_code = $1 AND ($2::uuid IS NULL OR r.merchant_id = $2)`;
const BY_SHORT_CODE = `SELECT ${REQUEST_DETAILS} FROM payment_request r WHERE r.short_code = $1 AND ($2::uuid IS NULL OR r.merchant_id = $2)`;
const BY_IDS = `SELECT ${REQUEST_DETAILS} FROM unnest($1::uuid[]) WITH ORDINALITY AS wanted(id, position)
  JOIN payment_request r ON r.id = wanted.id ORDER BY wanted.position`;

/** Which request: by id, requestCode or shortCode (exactly one), optionally only if it is one merchant's. */
export type RequestLookup = { requestId?: string; requestCode?: string; shortCode?: string; merchantId?: string };

/** A request by id, requestCode or shortCode, optionally only if it is one merchant's. */
export async function findRequestDetails(where: RequestLookup, sql: Sql = pool): Promise<RequestDetails | null> {
  const merchantId = where.merchantId ?? null;
  const statement = where.requestId
    ? prepared(BY_ID, [where.requestId, merchantId])
    : where.requestCode !== undefined
      ? prepared(BY_CODE, [where.requestCode, merchantId])
      : prepared(BY_SHORT_CODE, [where.shortCode, merchantId]);
  const { rows } = await sql.query<RequestDetailsRow>(statement);
  return rows[0] ? toRequestDetails(rows[0]) : null;
}

/** Requests by id, in the order of `ids` (those that do not exist are left out). */
export async function findRequestDetailsByIds(ids: readonly string[], sql: Sql = pool): Promise<RequestDetails[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<RequestDetailsRow>(prepared(BY_IDS, [ids]));
  return rows.map(toRequestDetails);
}
