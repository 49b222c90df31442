import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { getTransaction } from "../../src/domain/transactions/info.js";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, buildRequest, buildWallet, outboxFor, payer, walletBalance, type TestMerchant } from "../factories.js";
import { outcomeOf, raceToRefund } from "../races.js";

/** A paid request: on a sandbox wallet when one is given, else on test.uplink. */
async function buildPurchase(options: { amount?: number; walletId?: string; notifyUrl?: string; merchant?: TestMerchant } = {}) {
  const { merchant, request } = await buildRequest({
    amount: options.amount ?? 1000,
    notifyUrl: options.notifyUrl,
    merchant: options.merchant,
  });
  const paid = await payRequest(payer, {
    requestId: request.id,
    authorization: options.walletId ?? "x",
    ledger: options.walletId ? "sandbox.nzd.wallet" : "test.uplink",
  });
  return { merchant, request: paid, purchase: paid.purchase! };
}

describe("transactions.refund", () => {
  it("refunds a purchase in full and credits the wallet back", async () => {
    const wallet = await buildWallet(1000);
    const { merchant, purchase } = await buildPurchase({ amount: 800, walletId: wallet.walletId });
    expect(await walletBalance(wallet.walletId)).toBe(200n);

    const refund = await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 800 });
    expect(refund).toMatchObject({
      type: "REFUND",
      state: "COMPLETED",
      amount: 800n,
      purchaseId: purchase.id,
      ledgerId: "sandbox.nzd.wallet",
    });
    expect(refund.request.id).toBe(purchase.requestId);
    expect(await walletBalance(wallet.walletId)).toBe(1000n);
  });

  it("refunds a purchase once without a reference", async () => {
    const { merchant, purchase } = await buildPurchase();
    await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 100 });
    await expectCode(refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 100 }), "ALREADY_REFUNDED");
  });

  it("refunds many times with distinct references, never beyond the purchase", async () => {
    const { merchant, purchase } = await buildPurchase({ amount: 1000 });
    const refund = (externalReference: string, amount: number) =>
      refundTransaction(merchant.ctx, { transactionId: purchase.id, amount, externalReference });
    await refund("r1", 400);
    await refund("r2", 500);
    const error = await expectCode(refund("r3", 101), "INVALID_AMOUNT");
    expect(error.message).toContain("100");
    await refund("r3", 100);
    await expectCode(refund("r4", 1), "INVALID_AMOUNT");
    expect(await db.transaction.count({ where: { purchaseId: purchase.id } })).toBe(3);
  });

  it("returns the earlier refund for a repeated reference and amount, REPEAT_REFERENCE for another amount", async () => {
    const { merchant, purchase } = await buildPurchase({ notifyUrl: "http://127.0.0.1:9/hook" });
    const first = await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 300, externalReference: "rf-1" });
    const again = await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: "300", externalReference: "rf-1" });
    expect(again.id).toBe(first.id);
    await expectCode(
      refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 200, externalReference: "rf-1" }),
      "REPEAT_REFERENCE",
    );
    expect(await db.transaction.count({ where: { purchaseId: purchase.id } })).toBe(1);
    // One notification for the purchase, one for the single refund.
    expect((await outboxFor(purchase.requestId)).map((e) => (e.payload as { transactionType: string }).transactionType)).toEqual([
      "PURCHASE",
      "REFUND",
    ]);
  });

  it("refuses to refund a refund", async () => {
    const { merchant, purchase } = await buildPurchase();
    const refund = await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 10 });
    await expectCode(refundTransaction(merchant.ctx, { transactionId: refund.id, amount: 1 }), "INVALID_TRANSACTION_TYPE");
  });

  it("validates its parameters and hides other merchants' transactions", async () => {
    const { merchant, purchase } = await buildPurchase({ amount: 500 });
    const other = await buildMerchant();
    await expectCode(refundTransaction(merchant.ctx, { transactionId: "t-1", amount: 1 }), "TRANSACTION_NOT_FOUND");
    await expectCode(refundTransaction(merchant.ctx, { transactionId: "", amount: 1 }), "INVALID_TRANSACTION_ID");
    await expectCode(refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 0 }), "INVALID_AMOUNT");
    await expectCode(refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 501 }), "INVALID_AMOUNT");
    await expectCode(
      refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 1, externalReference: "x".repeat(200) }),
      "INVALID_REFERENCE",
    );
    await expectCode(refundTransaction(merchant.ctx, { transactionId: crypto.randomUUID(), amount: 1 }), "TRANSACTION_NOT_FOUND");
    await expectCode(refundTransaction(other.ctx, { transactionId: purchase.id, amount: 1 }), "TRANSACTION_NOT_FOUND");
    await expectCode(refundTransaction(payer, { transactionId: purchase.id, amount: 1 }), "FORBIDDEN");
    expect(await db.transaction.count({ where: { purchaseId: purchase.id } })).toBe(0);
  });

  it("writes the REFUND notification to the outbox only when the request has a notifyUrl", async () => {
    const withUrl = await buildPurchase({ notifyUrl: "http://127.0.0.1:9/hook" });
    const refund = await refundTransaction(withUrl.merchant.ctx, { transactionId: withUrl.purchase.id, amount: 250 });
    const events = await outboxFor(withUrl.purchase.requestId);
    expect(events.at(-1)).toMatchObject({ transactionId: refund.id, payload: { transactionType: "REFUND", amount: 250 } });

    await expectCode(
      refundTransaction(withUrl.merchant.ctx, { transactionId: withUrl.purchase.id, amount: 751, externalReference: "too-much" }),
      "INVALID_AMOUNT",
    );
    expect(await outboxFor(withUrl.purchase.requestId)).toHaveLength(events.length);

    const withoutUrl = await buildPurchase();
    await refundTransaction(withoutUrl.merchant.ctx, { transactionId: withoutUrl.purchase.id, amount: 250 });
    expect(await outboxFor(withoutUrl.purchase.requestId)).toHaveLength(0);
  });

  it("never refunds more than the purchase when 20 partial refunds race", async () => {
    await raceToRefund(({ merchant, ...refund }) => outcomeOf(refundTransaction(merchant.ctx, refund)));
  });
});

describe("transaction info", () => {
  it("reads the merchant's own transactions only", async () => {
    const { merchant, purchase } = await buildPurchase();
    expect((await getTransaction(merchant.ctx, { transactionId: purchase.id })).id).toBe(purchase.id);
    const other = await buildMerchant();
    await expectCode(getTransaction(other.ctx, { transactionId: purchase.id }), "TRANSACTION_NOT_FOUND");
    await expectCode(getTransaction(payer, { transactionId: purchase.id }), "FORBIDDEN");
  });
});
