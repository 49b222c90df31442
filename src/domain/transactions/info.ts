import { database } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { compiled } from "../../sql/compiled.js";
import { fromRowJson, rowJson } from "../../sql/rows.js";
import { notFound, requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { transactionIdCodes, transactionInfoInput, type TransactionInfoInput } from "./schemas.js";

type Own = { transactionId: string; merchantId: string };
const OWN_TRANSACTION = compiled<Own, { transaction: unknown }>((qb, param) =>
  qb
    .selectFrom("transaction as t")
    .select(rowJson("transaction", "t").as("transaction"))
    .where("t.id", "=", param("transactionId"))
    .where("t.merchantId", "=", param("merchantId")),
);
const OWN_TRANSACTION_WITH_REQUEST = compiled<Own, { transaction: unknown; request: unknown }>((qb, param) =>
  qb
    .selectFrom("transaction as t")
    .innerJoin("paymentRequest as r", "r.id", "t.requestId")
    .select([rowJson("transaction", "t").as("transaction"), rowJson("paymentRequest", "r").as("request")])
    .where("t.id", "=", param("transactionId"))
    .where("t.merchantId", "=", param("merchantId")),
);

/** Which of the calling merchant's transactions: its id and the merchant's. */
function ownTransaction(ctx: DomainContext, input: TransactionInfoInput): Own {
  const { merchantId } = requireMerchant(ctx);
  const { transactionId } = parseInput(transactionInfoInput, transactionIdCodes, input);
  return { transactionId, merchantId };
}

/** Reads one of the calling merchant's transactions. */
export async function getTransaction(ctx: DomainContext, input: TransactionInfoInput): Promise<Transaction> {
  const which = ownTransaction(ctx, input);
  const [row] = await OWN_TRANSACTION((await dashboardDatabase(ctx)).database, which);
  if (!row) throw notFound("TRANSACTION_NOT_FOUND");
  return fromRowJson("transaction", row.transaction);
}

/** Reads one of the calling merchant's transactions with its request, as a refund returns it. */
export async function getTransactionWithRequest(
  ctx: DomainContext,
  input: TransactionInfoInput,
): Promise<Transaction & { request: PaymentRequest }> {
  const [row] = await OWN_TRANSACTION_WITH_REQUEST(database, ownTransaction(ctx, input));
  if (!row) throw notFound("TRANSACTION_NOT_FOUND");
  return { ...fromRowJson("transaction", row.transaction), request: fromRowJson("paymentRequest", row.request) };
}
