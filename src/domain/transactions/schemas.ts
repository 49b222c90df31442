import { z } from "zod";
import { amount, id, optional, text } from "../validation.js";

export const refundTransactionInput = z.object({
  transactionId: id,
  amount,
  externalReference: optional(text(128)),
});
export type RefundTransactionInput = z.input<typeof refundTransactionInput>;
export const refundTransactionCodes = {
  transactionId: "INVALID_TRANSACTION_ID",
  amount: "INVALID_AMOUNT",
  externalReference: "INVALID_REFERENCE",
} as const;

export const transactionInfoInput = z.object({ transactionId: id });
export type TransactionInfoInput = z.input<typeof transactionInfoInput>;
export const transactionIdCodes = { transactionId: "INVALID_TRANSACTION_ID" } as const;
