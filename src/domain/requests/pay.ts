import { inTransaction, prepared, type Sql } from "../../db.js";
import type { PaymentOption, Transaction } from "../../generated/prisma/client.js";
import { nullable } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { ledgers } from "../../sql/tables.js";
import type { WriteContext } from "../audit/record.js";
import { merchantScope, notFound, requireMerchantOrPayer } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import type { LedgerApproval } from "../ledgers/connector.js";
import { connectorFor } from "../ledgers/connectors/index.js";

import { completedTransaction, transactionWrite } from "../transactions/completed.js";
import { parseInput } from "../validation.js";
import { REQUEST_DETAILS, requestDetailsColumns, toRequestDetails, type RequestDetails } from "./aggregate.js";
import { announceRequestChange } from "./changes.js";
import { payRequestCodes, payRequestInput, type PayRequestInput } from "./schemas.js";
import { assertOpen } from "./status.js";

/**
 * Pays a request with an authorization at one of its ledgers, in one database transaction of
 * three statements on the way to COMMIT (plus the ledger's own, for a sandbox wallet): lock and read
 * the request, ask the ledger, write. The request's row lock is held until commit, so of any
 * number of concurrent pays exactly one succeeds and the rest see REQUEST_PAID; a refusal (ours or
 * the ledger's) rolls everything back.
 */
export async function payRequest(ctx: DomainContext, input: PayRequestInput): Promise<RequestDetails> {
  requireMerchantOrPayer(ctx);
  const params = parseInput(payRequestInput, payRequestCodes, input);
  const scope = merchantScope(ctx);
  const paid = await inTransaction(async (sql) => {
    const { request, ledger } = await lockForPayment(sql, params.requestId, params.ledger);
    if (!ledger) throw new ValidationError("INVALID_LEDGER", "No such ledger.");
    if (!request || (scope.merchantId && scope.merchantId !== request.merchantId)) throw notFound("REQUEST_NOT_FOUND");
    const now = ctx.now();
    assertOpen(request, now);
    const option = request.options.find((candidate) => candidate.ledgerId === ledger.id);
    if (!option || !ledger.enabled) {
      throw new ValidationError("LEDGER_NOT_ENABLED", `The request cannot be paid at ${ledger.id}.`);
    }

    const approval = await connectorFor(ledger.connector).authorize(sql, {
      ledger,
      authorization: params.authorization,
      amount: option.amount,
      asset: request.asset,
      now,
    });
    const purchase = newPurchase(request, option, approval, now);
    const paid: RequestDetails = { ...request, status: "PAID", updatedAt: now, purchase };
    await recordPayment(sql, ctx, paid, purchase);
    return paid;
  });
  announceRequestChange({ merchantId: paid.merchantId, requestId: paid.id, change: "PAID" });
  return paid;
}

/** What paying needs of a ledger. */
const ledgerColumns = { ledger: nullable(ledgers.pick("id", "currency", "connector", "enabled")) };
const LEDGER = (id: string) => `(SELECT ${ledgerColumns.ledger.json("l")} FROM ledger l WHERE l.id = ${id}) AS ledger`;

/**
 * Takes the request's row lock (held until commit) and reads it, as committed by any payer before
 * us, with its options and the ledger asked for. When no request has that id, only the ledger.
 */
export const LOCK_FOR_PAYMENT = statement(
  `SELECT ${REQUEST_DETAILS}, ${LEDGER("$2")} FROM payment_request r WHERE r.id = $1 FOR UPDATE OF r`,
  { ...requestDetailsColumns, ...ledgerColumns },
);
const LEDGER_ALONE = statement(`SELECT ${LEDGER("$1")}`, ledgerColumns);

async function lockForPayment(sql: Sql, requestId: string, ledgerId: string) {
  const row = await queryRow(sql, LOCK_FOR_PAYMENT, [requestId, ledgerId]);
  if (row) return { request: toRequestDetails(row), ledger: row.ledger };
  const alone = await queryRow(sql, LEDGER_ALONE, [ledgerId]);
  return { request: null, ledger: alone?.ledger ?? null };
}

/** The PURCHASE that pays `request` with `option`, as the ledger approved it. */
export function newPurchase(request: RequestDetails, option: PaymentOption, approval: LedgerApproval, now: Date): Transaction {
  const { id: requestId, merchantId } = request;
  const fields = { requestId, merchantId, ledgerId: option.ledgerId, amount: option.amount, account: option.account ?? "" };
  return completedTransaction(
    { ...fields, type: "PURCHASE", purchaseId: null, externalReference: null },
    request.asset,
    approval,
    now,
  );
}

/** The purchase, the request's new status, the activity and the outbox row: one statement. */
export function paymentWrite(ctx: WriteContext, paid: RequestDetails, purchase: Transaction) {
  const activity = {
    action: "request.paid" as const,
    merchantId: paid.merchantId,
    requestId: paid.id,
    transactionId: purchase.id,
    outcome: `PAID ${purchase.amount} at ${purchase.ledgerId}`,
  };
  return transactionWrite(ctx, paid, purchase, activity, (p) => [
    `paid AS (UPDATE payment_request SET status = 'PAID', updated_at = ${p.add(paid.updatedAt)}::timestamp(3) WHERE id = ${p.add(paid.id)}::uuid)`,
  ]);
}

async function recordPayment(sql: Sql, ctx: WriteContext, paid: RequestDetails, purchase: Transaction): Promise<void> {
  const { text, values } = paymentWrite(ctx, paid, purchase);
  await sql.query(prepared(text, values));
}
