import { fromUtcText, pool } from "../../db.js";
import type { PaymentMethod, RequestStatus, TransactionState, TransactionType } from "../../generated/prisma/client.js";
import type { RequestDetails } from "./details.js";

// requests.info is the hottest read (terminals poll it), so it is one SQL statement on the pool
// instead of three Prisma queries; bench/ measured Prisma at several times the cost per query.
const SELECT_DETAILS = `
  SELECT row_to_json(r) AS request,
    (SELECT coalesce(json_agg(o ORDER BY o.index), '[]') FROM payment_option o WHERE o.request_id = r.id) AS options,
    (SELECT coalesce(json_agg(t), '[]') FROM "transaction" t WHERE t.request_id = r.id AND t.type = 'PURCHASE') AS purchases
  FROM payment_request r`;

// Timestamps arrive as JSON text without a zone (the columns hold UTC), read as UTC below.
interface Row {
  request: Record<string, unknown>;
  options: Record<string, unknown>[];
  purchases: Record<string, unknown>[];
}

const date = (value: unknown) => fromUtcText(value as string);
const text = (value: unknown) => (value ?? null) as string | null;

function toDetails({ request: r, options, purchases }: Row): RequestDetails {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    clientId: text(r.client_id),
    externalReference: text(r.external_reference),
    asset: r.asset as string,
    amount: BigInt(r.amount as number),
    requestCode: r.request_code as string,
    description: text(r.description),
    status: r.status as RequestStatus,
    paymentExpirySeconds: r.payment_expiry_seconds as number,
    expiresAt: date(r.expires_at),
    notifyUrl: text(r.notify_url),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    options: options.map((o) => ({
      id: o.id as string,
      requestId: o.request_id as string,
      index: o.index as number,
      ledgerId: o.ledger_id as string,
      amount: BigInt(o.amount as number),
      account: text(o.account),
      methods: o.methods as PaymentMethod[],
    })),
    transactions: purchases.map((t) => ({
      id: t.id as string,
      type: t.type as TransactionType,
      state: t.state as TransactionState,
      requestId: t.request_id as string,
      merchantId: t.merchant_id as string,
      ledgerId: t.ledger_id as string,
      amount: BigInt(t.amount as number),
      account: t.account as string,
      authCode: t.auth_code as string,
      responseCode: t.response_code as string,
      paymentType: t.payment_type as string,
      receipt: text(t.receipt),
      settlementDate: date(t.settlement_date),
      payerReference: text(t.payer_reference),
      purchaseId: text(t.purchase_id),
      externalReference: text(t.external_reference),
      createdAt: date(t.created_at),
      updatedAt: date(t.updated_at),
    })),
  };
}

/** A request with its options and purchase, by id or requestCode, optionally within one merchant. */
export async function findRequestDetails(where: { requestId?: string; requestCode?: string; merchantId?: string }) {
  const [column, value] = where.requestId ? ["r.id", where.requestId] : ["r.request_code", where.requestCode];
  const params = [value, ...(where.merchantId ? [where.merchantId] : [])];
  const { rows } = await pool.query<Row>(
    `${SELECT_DETAILS} WHERE ${column} = $1${where.merchantId ? " AND r.merchant_id = $2" : ""}`,
    params,
  );
  return rows[0] ? toDetails(rows[0]) : null;
}
