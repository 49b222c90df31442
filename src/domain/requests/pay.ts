import { sql } from "kysely";
import { database } from "../../db.js";
import type { PaymentOption, Transaction } from "../../generated/prisma/client.js";
import { compiled } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { fromRowJson, rowJson } from "../../sql/rows.js";
import type { WriteContext } from "../audit/trail.js";
import { merchantScope, notFound, requireMerchantOrPayer } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import type { LedgerApproval } from "../ledgers/connector.js";
import { connectorFor } from "../ledgers/connectors/index.js";

import {
  compiledTransactionWrite,
  completedTransaction,
  transactionWriteParams,
  type TransactionWriteParams,
} from "../transactions/completed.js";
import { parseInput } from "../validation.js";
import { requestFromRow, requestDetails, type DetailsRow, type RequestDetails } from "./aggregate.js";
import { announceRequestChange } from "./changes.js";
import { payRequestCodes, payRequestInput, type PayRequestInput } from "./schemas.js";
import { assertOpen } from "./status.js";

/**
 * Pays a request with an authorization at one of its ledgers, in one database transaction of
 * two statements of ours on the way to COMMIT (plus the ledger's own, for a sandbox wallet): lock and read
 * the request (and the ledger), ask the ledger, write. The request's row lock is held until commit, so of any
 * number of concurrent pays exactly one succeeds and the rest see REQUEST_PAID; a refusal (ours or
 * the ledger's) rolls everything back.
 */
export async function payRequest(ctx: DomainContext, input: PayRequestInput): Promise<RequestDetails> {
  requireMerchantOrPayer(ctx);
  const params = parseInput(payRequestInput, payRequestCodes, input);
  const scope = merchantScope(ctx);
  const paid = await database.transaction().execute(async (trx) => {
    const { request, ledger } = await lockForPayment(trx, params.requestId, params.ledger);
    if (!ledger) throw new ValidationError("INVALID_LEDGER", "No such ledger.");
    if (!request || (scope.merchantId && scope.merchantId !== request.merchantId)) throw notFound("REQUEST_NOT_FOUND");
    const now = ctx.now();
    assertOpen(request, now);
    const option = request.options.find((candidate) => candidate.ledgerId === ledger.id);
    if (!option || !ledger.enabled) {
      throw new ValidationError("LEDGER_NOT_ENABLED", `The request cannot be paid at ${ledger.id}.`);
    }

    const approval = await connectorFor(ledger.connector).authorize(trx, {
      ledger,
      authorization: params.authorization,
      amount: option.amount,
      asset: request.asset,
      now,
    });
    const purchase = newPurchase(request, option, approval, now);
    const paid: RequestDetails = { ...request, status: "PAID", updatedAt: now, purchase };
    await PAYMENT_WRITE(trx, paymentWriteParams(ctx, paid, purchase));
    return paid;
  });
  announceRequestChange({ merchantId: paid.merchantId, requestId: paid.id, change: "PAID" });
  return paid;
}

/** The request as committed by any payer before us, with its row lock (held until commit), and the ledger asked for. */
const LOCK_FOR_PAYMENT = compiled<{ requestId: string; ledgerId: string }, DetailsRow & { ledger: unknown }>((qb, param) =>
  qb
    .selectFrom("paymentRequest as r")
    .select(requestDetails)
    .select(ledgerJson(param("ledgerId")).as("ledger"))
    .where("r.id", "=", param("requestId"))
    .forUpdate("r"),
);
/** The ledger alone, when no request has the id. */
const LEDGER_ALONE = compiled<{ ledgerId: string }, { ledger: unknown }>((qb, param) =>
  qb.selectNoFrom(ledgerJson(param("ledgerId")).as("ledger")),
);
function ledgerJson(ledgerId: string) {
  return sql`(SELECT ${rowJson("ledger", "l")} FROM ledger l WHERE l.id = ${ledgerId})`;
}

export async function lockForPayment(trx: QueryBuilder, requestId: string, ledgerId: string) {
  const [row] = await LOCK_FOR_PAYMENT(trx, { requestId, ledgerId });
  if (row) {
    const { ledger, ...request } = requestFromRow(row);
    return { request, ledger: ledger === null ? null : fromRowJson("ledger", ledger) };
  }
  const [alone] = await LEDGER_ALONE(trx, { ledgerId });
  return { request: null, ledger: alone?.ledger ? fromRowJson("ledger", alone.ledger) : null };
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

/** The purchase, the request's new status, the activity and the announcement: one statement. */
export const PAYMENT_WRITE = compiledTransactionWrite<TransactionWriteParams & { paidAt: Date; paidId: string }>((qb, param) =>
  qb
    .updateTable("paymentRequest")
    .set({ status: "PAID", updatedAt: param("paidAt") })
    .where("id", "=", param("paidId")),
);

/** The values of PAYMENT_WRITE. */
export function paymentWriteParams(ctx: WriteContext, paid: RequestDetails, purchase: Transaction) {
  const activity = {
    action: "request.paid" as const,
    merchantId: paid.merchantId,
    requestId: paid.id,
    transactionId: purchase.id,
    outcome: `PAID ${purchase.amount} at ${purchase.ledgerId}`,
  };
  return { ...transactionWriteParams(ctx, paid, purchase, activity), paidAt: paid.updatedAt, paidId: paid.id };
}
