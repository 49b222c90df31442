import { db, type Prisma } from "../../db.js";
import type { Transaction } from "../../generated/prisma/client.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { parseInput } from "../validation.js";
import { transactionIdCodes, transactionInfoInput, type TransactionInfoInput } from "./schemas.js";

/** Reads one of the calling merchant's transactions. */
export async function getTransaction(
  ctx: DomainContext,
  input: TransactionInfoInput,
  query: { include?: Prisma.TransactionInclude } = {},
): Promise<Transaction> {
  const { merchantId } = requireMerchant(ctx);
  const { transactionId } = parseInput(transactionInfoInput, transactionIdCodes, input);
  const transaction = await db.transaction.findFirst({ ...query, where: { id: transactionId, merchantId } });
  if (!transaction) throw notFound("TRANSACTION_NOT_FOUND");
  return transaction;
}
