import { sql } from "kysely";
import { database } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { compiled } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { fromRowJson, fromRowsJson, rowJson, rowsJson } from "../../sql/rows.js";
import type { WriteContext } from "../audit/trail.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError, StateConflictError, ValidationError } from "../errors.js";
import type { LedgerApproval } from "../ledgers/connector.js";
import { connectorFor } from "../ledgers/connectors/index.js";
import { announceRequestChange } from "../requests/changes.js";
import { parseInput } from "../validation.js";

import {
  compiledTransactionWrite,
  completedTransaction,
  transactionWriteParams,
  type TransactionWriteParams,
} from "./completed.js";
import { refundTransactionCodes, refundTransactionInput, type RefundTransactionInput } from "./schemas.js";

/** A refund with the request it returns money from. */
export type RefundResult = Transaction & { request: PaymentRequest };

/**
 * Returns part or all of a purchase to the payer. The purchase row is locked before the refunds so
 * far are read and summed, so concurrent refunds never total more than the purchase.
 *
 * Without an externalReference a purchase is refunded once (ALREADY_REFUNDED after); with one it may
 * be refunded many times, each reference once: the same reference and amount again returns the
 * earlier refund, a different amount is REPEAT_REFERENCE.
 */
export async function refundTransaction(ctx: DomainContext, input: RefundTransactionInput): Promise<RefundResult> {
  const { merchantId } = requireMerchant(ctx);
  const params = parseInput(refundTransactionInput, refundTransactionCodes, input);
  const reference = params.externalReference ?? null;

  const result = await database.transaction().execute(async (trx) => {
    const purchase = await lockPurchase(trx, params.transactionId, merchantId);
    if (!purchase) throw notFound("TRANSACTION_NOT_FOUND");
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
    const approval = await connectorFor(purchase.ledger.connector).refund(trx, {
      ledger: purchase.ledger,
      purchase,
      amount: params.amount,
      now,
    });
    const refund = newRefund(purchase, purchase.request, params.amount, reference, approval, now);
    await REFUND_WRITE(trx, refundWriteParams(ctx, purchase.request, refund));
    return { ...refund, request: purchase.request };
  });
  announceRequestChange({ merchantId, requestId: result.requestId, change: "REFUNDED" });
  return result;
}

/** Takes the purchase's row lock (held until commit); no row when it is not the merchant's. */
export const LOCK_PURCHASE = compiled<{ transactionId: string; merchantId: string }, { id: string }>((qb, param) =>
  qb
    .selectFrom("transaction")
    .select("id")
    .where("id", "=", param("transactionId"))
    .where("merchantId", "=", param("merchantId"))
    .forUpdate(),
);

/**
 * The purchase with its request, ledger and refunds, read after the lock is held: a statement of
 * its own, so that it sees every refund committed before the lock was granted.
 */
export const READ_PURCHASE = compiled<
  { transactionId: string },
  { purchase: unknown; request: unknown; refunds: unknown; ledger: unknown }
>((qb, param) =>
  qb
    .selectFrom("transaction as t")
    .innerJoin("paymentRequest as r", "r.id", "t.requestId")
    .innerJoin("ledger as l", "l.id", "t.ledgerId")
    .select([
      rowJson("transaction", "t").as("purchase"),
      rowJson("paymentRequest", "r").as("request"),
      rowsJson("transaction", sql`x.purchase_id = t.id`, "x.created_at").as("refunds"),
      rowJson("ledger", "l").as("ledger"),
    ])
    .where("t.id", "=", param("transactionId")),
);

async function lockPurchase(trx: QueryBuilder, transactionId: string, merchantId: string) {
  const locked = await LOCK_PURCHASE(trx, { transactionId, merchantId });
  if (locked.length === 0) return null;
  const [row] = await READ_PURCHASE(trx, { transactionId });
  return row ? toPurchase(row) : null;
}

/** A row of READ_PURCHASE: the purchase, with its request, refunds and ledger. */
export const toPurchase = (row: { purchase: unknown; request: unknown; refunds: unknown; ledger: unknown }) => ({
  ...fromRowJson("transaction", row.purchase),
  request: fromRowJson("paymentRequest", row.request),
  refunds: fromRowsJson("transaction", row.refunds),
  ledger: fromRowJson("ledger", row.ledger),
});

/** The REFUND of `amount` of `purchase`, as the ledger approved it. */
export function newRefund(
  purchase: Transaction,
  request: PaymentRequest,
  amount: bigint,
  externalReference: string | null,
  approval: LedgerApproval,
  now: Date,
): Transaction {
  const { requestId, merchantId, ledgerId, account, id: purchaseId } = purchase;
  const fields = { requestId, merchantId, ledgerId, account, amount, purchaseId, externalReference };
  return completedTransaction({ ...fields, type: "REFUND" }, request.asset, approval, now);
}

/** The refund, the activity and the announcement: one statement. */
export const REFUND_WRITE = compiledTransactionWrite<TransactionWriteParams>();

/** The values of REFUND_WRITE. */
export function refundWriteParams(ctx: WriteContext, request: PaymentRequest, refund: Transaction): TransactionWriteParams {
  return transactionWriteParams(ctx, request, refund, {
    action: "transaction.refunded",
    merchantId: refund.merchantId,
    requestId: refund.requestId,
    transactionId: refund.id,
    outcome: `REFUNDED ${refund.amount} of ${refund.purchaseId}`,
  });
}
