import { db, type Tx } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError, StateConflictError, ValidationError } from "../errors.js";
import { connectorFor } from "../ledgers/connectors/index.js";
import { parseInput } from "../validation.js";
import { recordWebhookEvent } from "../webhooks/record.js";
import { recordActivity } from "../audit/record.js";
import { receiptFor } from "./receipt.js";
import { announceRequestChange } from "../requests/changes.js";
import { refundTransactionCodes, refundTransactionInput, type RefundTransactionInput } from "./schemas.js";

/** A refund with the request it returns money from. */
export type RefundResult = Transaction & { request: PaymentRequest };

/**
 * Returns part or all of a purchase to the payer. The purchase row is locked while the refunds so
 * far are summed, so concurrent refunds never total more than the purchase.
 *
 * Without an externalReference a purchase is refunded once (ALREADY_REFUNDED after); with one it may
 * be refunded many times, each reference once: the same reference and amount again returns the
 * earlier refund, a different amount is REPEAT_REFERENCE.
 */
export async function refundTransaction(ctx: DomainContext, input: RefundTransactionInput): Promise<RefundResult> {
  const { merchantId } = requireMerchant(ctx);
  const params = parseInput(refundTransactionInput, refundTransactionCodes, input);
  const reference = params.externalReference ?? null;

  const result = await db.$transaction(
    async (tx) => {
      const purchase = await lockPurchase(tx, params.transactionId);
      if (!purchase || purchase.merchantId !== merchantId) throw notFound("TRANSACTION_NOT_FOUND");
      if (purchase.type !== "PURCHASE") {
        throw new ForbiddenError("INVALID_TRANSACTION_TYPE", "Only a PURCHASE transaction can be refunded.");
      }

      const earlier = purchase.refunds.find((refund) => refund.externalReference === reference);
      if (earlier && reference !== null) {
        if (earlier.amount !== params.amount) {
          throw new StateConflictError("REPEAT_REFERENCE", "This externalReference was used for a different amount.");
        }
        return { ...earlier, request: purchase.request };
      }
      if (earlier) throw new StateConflictError("ALREADY_REFUNDED", "The transaction has already been refunded.");

      const refunded = purchase.refunds.reduce((sum, refund) => sum + refund.amount, 0n);
      const remaining = purchase.amount - refunded;
      if (params.amount > remaining) {
        throw new ValidationError("INVALID_AMOUNT", `amount exceeds the ${remaining} minimum units that remain refundable`);
      }

      const now = ctx.now();
      const approval = await connectorFor(purchase.ledger.connector).refund(tx, {
        ledger: purchase.ledger,
        purchase,
        amount: params.amount,
        now,
      });
      const refund = await tx.transaction.create({
        data: {
          type: "REFUND",
          requestId: purchase.requestId,
          merchantId,
          ledgerId: purchase.ledgerId,
          amount: params.amount,
          account: purchase.account,
          ...approval,
          receipt: receiptFor({
            kind: "REFUND",
            amount: params.amount,
            asset: purchase.request.asset,
            ledgerId: purchase.ledgerId,
            authCode: approval.authCode,
            at: now,
          }),
          purchaseId: purchase.id,
          externalReference: reference,
          createdAt: now,
          updatedAt: now,
        },
      });
      await recordWebhookEvent(tx, purchase.request, refund, ctx.requestId);
      await recordActivity(tx, ctx, {
        action: "transaction.refunded",
        merchantId,
        requestId: purchase.requestId,
        transactionId: refund.id,
        outcome: `REFUNDED ${refund.amount} of ${purchase.id}`,
      });
      return { ...refund, request: purchase.request };
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
  announceRequestChange({ merchantId, requestId: result.requestId, change: "REFUNDED" });
  return result;
}

async function lockPurchase(tx: Tx, transactionId: string) {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "transaction" WHERE id = ${transactionId}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.transaction.findUnique({
    where: { id: transactionId },
    include: { refunds: true, ledger: true, request: true },
  });
}
