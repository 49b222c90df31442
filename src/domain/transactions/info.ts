import { pool } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { queryRow, statement } from "../../sql/statements.js";
import { paymentRequests, transactions } from "../../sql/tables.js";
import { notFound, requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { transactionIdCodes, transactionInfoInput, type TransactionInfoInput } from "./schemas.js";

const OWN_TRANSACTION = statement(
  `SELECT ${transactions.json("t")} AS transaction FROM "transaction" t WHERE t.id = $1 AND t.merchant_id = $2`,
  { transaction: transactions },
);
const OWN_TRANSACTION_WITH_REQUEST = statement(
  `SELECT ${transactions.json("t")} AS transaction, ${paymentRequests.json("r")} AS request
   FROM "transaction" t JOIN payment_request r ON r.id = t.request_id WHERE t.id = $1 AND t.merchant_id = $2`,
  { transaction: transactions, request: paymentRequests },
);

/** Which of the calling merchant's transactions: its id and the merchant's. */
function ownTransaction(ctx: DomainContext, input: TransactionInfoInput): [string, string] {
  const { merchantId } = requireMerchant(ctx);
  const { transactionId } = parseInput(transactionInfoInput, transactionIdCodes, input);
  return [transactionId, merchantId];
}

/** Reads one of the calling merchant's transactions. */
export async function getTransaction(ctx: DomainContext, input: TransactionInfoInput): Promise<Transaction> {
  const which = ownTransaction(ctx, input);
  const row = await queryRow((await dashboardDatabase(ctx)).pool, OWN_TRANSACTION, which);
  if (!row) throw notFound("TRANSACTION_NOT_FOUND");
  return row.transaction;
}

/** Reads one of the calling merchant's transactions with its request, as a refund returns it. */
export async function getTransactionWithRequest(
  ctx: DomainContext,
  input: TransactionInfoInput,
): Promise<Transaction & { request: PaymentRequest }> {
  const row = await queryRow(pool, OWN_TRANSACTION_WITH_REQUEST, ownTransaction(ctx, input));
  if (!row) throw notFound("TRANSACTION_NOT_FOUND");
  return { ...row.transaction, request: row.request };
}
