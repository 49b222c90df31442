/**
 * The benchmark's baseline: the same SQL reads and writes as requests.create, requests.info,
 * requests.pay and transactions.refund (API key lookup; configuration items, request and options
 * insert; request, options and purchase read; pay and refund run the service's own statements and
 * row mappers from src/domain), on plain node:http and pg with no framework, no ORM, no input
 * validation, rate limit or idempotency; every statement prepared, as the service's hot paths are.
 * A stand-in for this box's limit. It pays and refunds at
 * test.uplink only, and answers a refused call with its status and code alone.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { prepared } from "../src/db.js";
import type { PaymentMethod } from "../src/generated/prisma/client.js";
import type { WriteContext } from "../src/domain/audit/trail.js";
import type { Actor } from "../src/domain/context.js";
import { sandboxApproval } from "../src/domain/ledgers/approval-code.js";
import { lockForPayment, newPurchase, PAYMENT_WRITE, paymentWriteParams } from "../src/domain/requests/pay.js";
import {
  LOCK_PURCHASE,
  newRefund,
  READ_PURCHASE,
  REFUND_WRITE,
  refundWriteParams,
  toPurchase,
} from "../src/domain/transactions/refund.js";
import { queryBuilder } from "../src/sql/query-builder.js";
import { recordJson } from "../src/sql/rows.js";
import { toNotificationTransaction } from "../src/domain/webhooks/events.js";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
/** The service's query builder on this pool, for its pay and refund statements. */
const database = queryBuilder(pool);
// Columns are UTC timestamp(3) without a zone (src/db.ts): read them as UTC, whatever the machine's zone.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (text) => new Date(`${text.replace(" ", "T")}Z`));
const port = Number(process.env.PORT ?? 0);

type Key = { prefix: string; kind: "MERCHANT" | "PAYER"; merchant_id: string | null };
/** A row as pg returns it. */
type Row = Record<string, unknown>;

/** A refused call: its HTTP status and error code. */
class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

async function body(req: IncomingMessage): Promise<Record<string, string>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, string>) : {};
}

async function keyOf(key: string | undefined): Promise<Key | null> {
  const { rows } = await pool.query(
    prepared("SELECT prefix, kind, merchant_id FROM api_key WHERE hash = $1 AND revoked_at IS NULL", [
      createHash("sha256")
        .update(key ?? "")
        .digest("hex"),
    ]),
  );
  return (rows[0] as Key | undefined) ?? null;
}

async function create(merchantId: string, params: Record<string, string>) {
  const items = await pool.query(
    prepared(
      `SELECT i.ledger_id, i.account, i.methods::text[] AS methods FROM configuration_item i JOIN ledger l ON l.id = i.ledger_id
     WHERE i.merchant_id = $1 AND i.client_id IS NULL AND l.enabled AND i.currency = $2 ORDER BY i.index`,
      [merchantId, params.asset],
    ),
  );
  const now = new Date();
  const amount = BigInt(params.amount ?? 0);
  const request = {
    id: randomUUID(),
    merchantId,
    clientId: null,
    externalReference: null,
    asset: params.asset ?? "",
    amount,
    requestCode: randomBytes(8).toString("hex"),
    // The service draws a PR-XXX-XXX code; 64 random bits here need no retry, for the same write.
    shortCode: randomBytes(8).toString("hex"),
    description: null,
    status: "NEW" as const,
    paymentExpirySeconds: 120,
    expiresAt: new Date(now.getTime() + 120_000),
    notifyUrl: null,
    redirectUrl: null,
    createdAt: now,
    updatedAt: now,
  };
  const options = items.rows.map((item: Row, index) => ({
    id: randomUUID(),
    requestId: request.id,
    index,
    ledgerId: item.ledger_id as string,
    amount,
    account: item.account as string | null,
    methods: item.methods as PaymentMethod[],
  }));
  // The request and its options as the service writes them: one statement, each table's rows as one JSON parameter.
  const text = `WITH request AS (INSERT INTO payment_request SELECT * FROM json_populate_record(null::payment_request, $1::json))
    INSERT INTO payment_option SELECT * FROM json_populate_recordset(null::payment_option, $2::json)`;
  await pool.query(prepared(text, [recordJson(request), recordJson(options)]));
  return { ...request, options };
}

async function info(merchantId: string, requestId: string) {
  const [request, options, purchase] = await Promise.all([
    pool.query(prepared("SELECT * FROM payment_request WHERE id = $1 AND merchant_id = $2", [requestId, merchantId])),
    pool.query(prepared("SELECT * FROM payment_option WHERE request_id = $1 ORDER BY index", [requestId])),
    pool.query(prepared("SELECT * FROM transaction WHERE request_id = $1 AND type = 'PURCHASE'", [requestId])),
  ]);
  const row = request.rows[0] as Row | undefined;
  return row ? { ...row, options: options.rows as Row[], paidBy: purchase.rows[0] as Row | undefined } : null;
}

/** What the service's write statements need of the call: who made it and when. */
function callOf(key: Key, correlationId: string): WriteContext {
  const actor: Actor =
    key.kind === "PAYER"
      ? { kind: "payer", keyPrefix: key.prefix }
      : { kind: "merchant", merchantId: key.merchant_id!, keyPrefix: key.prefix };
  return { actor, requestId: correlationId, now: () => new Date() };
}

/** The service's pay statements (domain/requests/pay.ts), on test.uplink, with the rules checked in line. */
async function pay(key: Key, params: Record<string, string>, correlationId: string) {
  const call = callOf(key, correlationId);
  return database.transaction().execute(async (trx) => {
    const { request, ledger } = await lockForPayment(trx, params.requestId ?? "", params.ledger ?? "");
    if (!request || (key.kind === "MERCHANT" && request.merchantId !== key.merchant_id))
      throw new Refused(404, "REQUEST_NOT_FOUND");
    const now = call.now();
    if (request.status !== "NEW") throw new Refused(409, `REQUEST_${request.status}`);
    if (request.expiresAt <= now) throw new Refused(409, "REQUEST_EXPIRED");
    const option = request.options.find((candidate) => candidate.ledgerId === params.ledger);
    if (!option || !ledger?.enabled) throw new Refused(400, "LEDGER_NOT_ENABLED");
    if (ledger.connector !== "TEST_UPLINK" || !params.authorization?.trim()) throw new Refused(400, "INVALID_AUTHORIZATION");
    const purchase = newPurchase(request, option, sandboxApproval("test", now, null), now);
    const paid = { ...request, status: "PAID" as const, updatedAt: now, purchase };
    await PAYMENT_WRITE(trx, paymentWriteParams(call, paid, purchase));
    return { requestId: paid.id, status: "PAID", paidBy: toNotificationTransaction(purchase, paid) };
  });
}

/** The service's refund statements (domain/transactions/refund.ts), on test.uplink, with the rules checked in line. */
async function refund(key: Key, merchantId: string, params: Record<string, string>, correlationId: string) {
  const call = callOf(key, correlationId);
  const reference = params.externalReference ?? null;
  return database.transaction().execute(async (trx) => {
    const transactionId = params.transactionId ?? "";
    const locked = await LOCK_PURCHASE(trx, { transactionId, merchantId });
    if (locked.length === 0) throw new Refused(404, "TRANSACTION_NOT_FOUND");
    const purchase = toPurchase((await READ_PURCHASE(trx, { transactionId }))[0]!);
    if (purchase.type !== "PURCHASE") throw new Refused(403, "INVALID_TRANSACTION_TYPE");
    const amount = BigInt(params.amount ?? 0);
    const earlier = purchase.refunds.find((r) => r.externalReference === reference);
    // The same reference and amount again is answered with the earlier refund.
    if (earlier && reference !== null && earlier.amount === amount) return toNotificationTransaction(earlier, purchase.request);
    if (earlier) throw new Refused(409, reference === null ? "ALREADY_REFUNDED" : "REPEAT_REFERENCE");
    const refunded = purchase.refunds.reduce((sum, r) => sum + r.amount, 0n);
    if (amount <= 0n || amount > purchase.amount - refunded) throw new Refused(400, "INVALID_AMOUNT");
    if (purchase.ledger.connector !== "TEST_UPLINK") throw new Refused(400, "INVALID_AUTHORIZATION");
    const now = call.now();
    const made = newRefund(purchase, purchase.request, amount, reference, sandboxApproval("test", now, null), now);
    await REFUND_WRITE(trx, refundWriteParams(call, purchase.request, made));
    return toNotificationTransaction(made, purchase.request);
  });
}

createServer((req, res) => void serve(req, res)).listen(port, "127.0.0.1", function (this: Server) {
  // The bench starts this with an IPC channel and learns the port from this message.
  process.send?.({ listening: (this.address() as AddressInfo).port });
});

async function serve(req: IncomingMessage, res: ServerResponse) {
  try {
    const key = await keyOf(req.headers["x-api-key"] as string | undefined);
    if (!key) return res.writeHead(401).end();
    const url = new URL(req.url!, "http://x");
    const correlationId = randomUUID();
    const merchantOnly = () => {
      if (!key.merchant_id) throw new Refused(403, "FORBIDDEN");
      return key.merchant_id;
    };
    const result =
      url.pathname === "/api/requests.create"
        ? await create(merchantOnly(), await body(req))
        : url.pathname === "/api/requests.pay"
          ? await pay(key, await body(req), correlationId)
          : url.pathname === "/api/transactions.refund"
            ? await refund(key, merchantOnly(), await body(req), correlationId)
            : await info(merchantOnly(), url.searchParams.get("requestId") ?? "");
    res
      .writeHead(result ? 200 : 404, { "content-type": "application/json" })
      .end(JSON.stringify(result, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)));
  } catch (error) {
    if (error instanceof Refused) return res.writeHead(error.status).end(JSON.stringify({ code: error.code }));
    res.writeHead(500).end(String(error));
  }
}
