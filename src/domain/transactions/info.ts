import { db } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { notFound, requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { transactionIdCodes, transactionInfoInput, type TransactionInfoInput } from "./schemas.js";

/** Where one of the calling merchant's transactions is. */
function ownTransaction(ctx: DomainContext, input: TransactionInfoInput) {
  const { merchantId } = requireMerchant(ctx);
  const { transactionId } = parseInput(transactionInfoInput, transactionIdCodes, input);
  return { id: transactionId, merchantId };
}

/** Reads one of the calling merchant's transactions. */
export async function getTransaction(ctx: DomainContext, input: TransactionInfoInput): Promise<Transaction> {
  const where = ownTransaction(ctx, input);
  const transaction = await (await dashboardDatabase(ctx)).db.transaction.findFirst({ where });
  if (!transaction) throw notFound("TRANSACTION_NOT_FOUND");
  return transaction;
}

/** Reads one of the calling merchant's transactions with its request, as a refund returns it. */
export async function getTransactionWithRequest(
  ctx: DomainContext,
  input: TransactionInfoInput,
): Promise<Transaction & { request: PaymentRequest }> {
  const transaction = await db.transaction.findFirst({ where: ownTransaction(ctx, input), include: { request: true } });
  if (!transaction) throw notFound("TRANSACTION_NOT_FOUND");
  return transaction;
}
