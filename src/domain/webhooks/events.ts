import { z } from "zod";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";

/**
 * The notification's `transaction` claim: every field of the spec's Transaction. The worker
 * parses stored payloads with this schema before signing them.
 */
export const notificationTransaction = z.object({
  transactionId: z.string(),
  transactionType: z.enum(["PURCHASE", "REFUND"]),
  ledger: z.string(),
  state: z.literal("completed"),
  amount: z.number().int().positive(),
  request: z.object({
    requestId: z.string(),
    merchantId: z.string(),
    externalReference: z.string().optional(),
    denomination: z.object({ asset: z.string(), amount: z.number().int().positive() }),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
  type: z.string(),
  timestamp: z.string(),
  account: z.string(),
  responseCode: z.string(),
  settlementDate: z.string(),
  receipt: z.string().optional(),
  authCode: z.string(),
});
export type NotificationTransaction = z.infer<typeof notificationTransaction>;

type RequestFields = Pick<PaymentRequest, "id" | "merchantId" | "externalReference" | "asset" | "amount">;

/** A completed transaction in the shape notifications (and refund responses) carry. */
export function toNotificationTransaction(transaction: Transaction, request: RequestFields): NotificationTransaction {
  return {
    transactionId: transaction.id,
    transactionType: transaction.type,
    ledger: transaction.ledgerId,
    state: "completed",
    amount: Number(transaction.amount),
    request: {
      requestId: request.id,
      merchantId: request.merchantId,
      ...(request.externalReference ? { externalReference: request.externalReference } : {}),
      denomination: { asset: request.asset, amount: Number(request.amount) },
    },
    createdAt: transaction.createdAt.toISOString(),
    updatedAt: transaction.updatedAt.toISOString(),
    type: transaction.paymentType,
    timestamp: transaction.createdAt.toISOString(),
    account: transaction.account,
    responseCode: transaction.responseCode,
    settlementDate: transaction.settlementDate.toISOString(),
    ...(transaction.receipt ? { receipt: transaction.receipt } : {}),
    authCode: transaction.authCode,
  };
}
