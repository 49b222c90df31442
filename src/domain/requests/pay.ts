import { db, type Tx } from "../../db.js";
import { merchantScope, notFound, requireMerchantOrPayer } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { connectorFor } from "../ledgers/connectors/index.js";
import { receiptFor } from "../transactions/receipt.js";
import { parseInput } from "../validation.js";
import { recordWebhookEvent } from "../webhooks/record.js";
import { recordActivity } from "../audit/record.js";
import { requestDetails, type RequestDetails } from "./details.js";
import { payRequestCodes, payRequestInput, type PayRequestInput } from "./schemas.js";
import { announceRequestChange } from "./changes.js";
import { assertOpen } from "./status.js";

/**
 * Pays a request with an authorization at one of its ledgers. The request row is locked for the
 * whole transaction, so of any number of concurrent pays exactly one succeeds and the rest see
 * REQUEST_PAID; a refusal by the ledger rolls everything back.
 */
export async function payRequest(ctx: DomainContext, input: PayRequestInput): Promise<RequestDetails> {
  requireMerchantOrPayer(ctx);
  const params = parseInput(payRequestInput, payRequestCodes, input);
  const ledger = await db.ledger.findUnique({ where: { id: params.ledger } });
  if (!ledger) throw new ValidationError("INVALID_LEDGER", "No such ledger.");

  const paid = await db.$transaction(
    async (tx) => {
      const request = await lockRequest(tx, params.requestId);
      const scope = merchantScope(ctx);
      if (!request || (scope.merchantId && scope.merchantId !== request.merchantId)) throw notFound("REQUEST_NOT_FOUND");
      const now = ctx.now();
      assertOpen(request, now);
      const option = request.options.find((candidate) => candidate.ledgerId === ledger.id);
      if (!option || !ledger.enabled) {
        throw new ValidationError("LEDGER_NOT_ENABLED", `The request cannot be paid at ${ledger.id}.`);
      }

      const approval = await connectorFor(ledger.connector).authorize(tx, {
        ledger,
        authorization: params.authorization,
        amount: option.amount,
        asset: request.asset,
        now,
      });
      const purchase = await tx.transaction.create({
        data: {
          type: "PURCHASE",
          requestId: request.id,
          merchantId: request.merchantId,
          ledgerId: ledger.id,
          amount: option.amount,
          account: option.account ?? "",
          ...approval,
          receipt: receiptFor({
            kind: "PURCHASE",
            amount: option.amount,
            asset: request.asset,
            ledgerId: ledger.id,
            authCode: approval.authCode,
            at: now,
          }),
          createdAt: now,
          updatedAt: now,
        },
      });
      const paid = await tx.paymentRequest.update({
        where: { id: request.id },
        data: { status: "PAID", updatedAt: now },
        include: requestDetails,
      });
      await recordWebhookEvent(tx, paid, purchase, ctx.requestId);
      await recordActivity(tx, ctx, {
        action: "request.paid",
        merchantId: paid.merchantId,
        requestId: paid.id,
        transactionId: purchase.id,
        outcome: `PAID ${purchase.amount} at ${purchase.ledgerId}`,
      });
      return paid;
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
  announceRequestChange({ merchantId: paid.merchantId, requestId: paid.id, change: "PAID" });
  return paid;
}

/** Takes the request's row lock (held until commit), then reads it as committed by any earlier payer. */
async function lockRequest(tx: Tx, requestId: string) {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payment_request WHERE id = ${requestId}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.paymentRequest.findUnique({ where: { id: requestId }, include: { options: true } });
}
