import { inTransaction, prepared, type Sql } from "../../db.js";
import type { PaymentRequest, Transaction } from "../../generated/prisma/client.js";
import { queryRow, statement, type RowOf } from "../../sql/statements.js";
import { listOf } from "../../sql/table.js";
import { ledgers, paymentRequests, transactions } from "../../sql/tables.js";
import type { WriteContext } from "../audit/record.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError, StateConflictError, ValidationError } from "../errors.js";
import type { LedgerApproval } from "../ledgers/connector.js";
import { connectorFor } from "../ledgers/connectors/index.js";
import { announceRequestChange } from "../requests/changes.js";
import { parseInput } from "../validation.js";

import { completedTransaction, transactionWrite } from "./completed.js";
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

  const result = await inTransaction(async (sql) => {
    const purchase = await lockPurchase(sql, params.transactionId, merchantId);
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
    const approval = await connectorFor(purchase.ledger.connector).refund(sql, {
      ledger: purchase.ledger,
      purchase,
      amount: params.amount,
      now,
    });
    const refund = newRefund(purchase, purchase.request, params.amount, reference, approval, now);
    const { text, values } = refundWrite(ctx, purchase.request, refund);
    await sql.query(prepared(text, values));
    return { ...refund, request: purchase.request };
  });
  announceRequestChange({ merchantId, requestId: result.requestId, change: "REFUNDED" });
  return result;
}

/** Takes the purchase's row lock (held until commit); no row when it is not the merchant's. */
export const LOCK_PURCHASE = `SELECT id FROM "transaction" WHERE id = $1 AND merchant_id = $2 FOR UPDATE`;

const purchaseColumns = {
  purchase: transactions,
  request: paymentRequests,
  refunds: listOf(transactions),
  ledger: ledgers.pick("id", "currency", "connector"),
};

/**
 * The purchase with its request, ledger and refunds, read after the lock is held: a statement of
 * its own, so that it sees every refund committed before the lock was granted.
 */
export const READ_PURCHASE = statement(
  `SELECT ${transactions.json("t")} AS purchase, ${paymentRequests.json("r")} AS request,
     (SELECT ${transactions.jsonList("x", "x.created_at")} FROM "transaction" x WHERE x.purchase_id = t.id) AS refunds,
     ${purchaseColumns.ledger.json("l")} AS ledger
   FROM "transaction" t JOIN payment_request r ON r.id = t.request_id JOIN ledger l ON l.id = t.ledger_id
   WHERE t.id = $1`,
  purchaseColumns,
);

async function lockPurchase(sql: Sql, transactionId: string, merchantId: string) {
  const locked = await sql.query(prepared(LOCK_PURCHASE, [transactionId, merchantId]));
  if (locked.rowCount === 0) return null;
  const row = await queryRow(sql, READ_PURCHASE, [transactionId]);
  return row ? toPurchase(row) : null;
}

/** A row of READ_PURCHASE: the purchase, with its request, refunds and ledger. */
export const toPurchase = ({ purchase, ...rest }: RowOf<typeof purchaseColumns>) => ({ ...purchase, ...rest });

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

/** The refund, the activity and the outbox row: one statement. */
export function refundWrite(ctx: WriteContext, request: PaymentRequest, refund: Transaction) {
  return transactionWrite(ctx, request, refund, {
    action: "transaction.refunded",
    merchantId: refund.merchantId,
    requestId: refund.requestId,
    transactionId: refund.id,
    outcome: `REFUNDED ${refund.amount} of ${refund.purchaseId}`,
  });
}
