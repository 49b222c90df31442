import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { expireOverdueRequests } from "../../src/domain/requests/expire.js";
import { getRequest } from "../../src/domain/requests/info.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, buildRequest, buildWallet, contextFor, outboxFor, payer, walletBalance } from "../factories.js";
import { outcomeOf, raceToPay } from "../races.js";

describe("requests.pay", () => {
  it("pays on test.uplink and records the purchase as paidBy", async () => {
    const { request } = await buildRequest({ amount: 450 });
    const paid = await payRequest(payer, { requestId: request.id, authorization: "any-token", ledger: "test.uplink" });

    expect(paid.status).toBe("PAID");
    expect(paid.updatedAt.getTime()).toBeGreaterThanOrEqual(request.updatedAt.getTime());
    const purchase = paid.purchase;
    // What the pay answers is the request as it now reads (it is built from what the pay wrote).
    expect(paid).toEqual(await getRequest(payer, { requestId: request.id }));
    expect(purchase).toMatchObject({
      type: "PURCHASE",
      state: "COMPLETED",
      amount: 450n,
      ledgerId: "test.uplink",
      responseCode: "00",
    });
    expect(purchase!.authCode).toMatch(/^[A-Z0-9]{6}$/);
    expect(Buffer.from(purchase!.receipt!, "base64").toString()).toContain("450 minimum units of NZD");
  });

  it("debits a sandbox wallet by exactly the amount", async () => {
    const wallet = await buildWallet(1000);
    const { request } = await buildRequest({ amount: 300 });
    await payRequest(payer, { requestId: request.id, authorization: wallet.walletId, ledger: "sandbox.nzd.wallet" });
    expect(await walletBalance(wallet.walletId)).toBe(700n);
  });

  it("lets the merchant's own key pay (a terminal taking the payer's authorization)", async () => {
    const { merchant, request } = await buildRequest();
    const paid = await payRequest(merchant.ctx, { requestId: request.id, authorization: "card", ledger: "test.uplink" });
    expect(paid.status).toBe("PAID");
  });

  it("hides another merchant's request", async () => {
    const { request } = await buildRequest();
    const other = await buildMerchant();
    await expectCode(
      payRequest(other.ctx, { requestId: request.id, authorization: "x", ledger: "test.uplink" }),
      "REQUEST_NOT_FOUND",
    );
  });

  it("answers INSUFFICIENT_ASSET_BALANCE and changes nothing when the wallet is short", async () => {
    const wallet = await buildWallet(299);
    const { request } = await buildRequest({ amount: 300, notifyUrl: "http://127.0.0.1:9/hook" });
    await expectCode(
      payRequest(payer, { requestId: request.id, authorization: wallet.walletId, ledger: "sandbox.nzd.wallet" }),
      "INSUFFICIENT_ASSET_BALANCE",
    );
    expect(await walletBalance(wallet.walletId)).toBe(299n);
    expect(await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "NEW" });
    expect(await db.transaction.count({ where: { requestId: request.id } })).toBe(0);
    expect(await outboxFor(request.id)).toHaveLength(0);
  });

  it("answers INACTIVE_ASSET for an unknown wallet or one of another currency", async () => {
    const { request } = await buildRequest();
    await expectCode(
      payRequest(payer, { requestId: request.id, authorization: "not-a-wallet", ledger: "sandbox.nzd.wallet" }),
      "INACTIVE_ASSET",
    );
    const aud = await buildWallet(10_000, "AUD");
    await expectCode(
      payRequest(payer, { requestId: request.id, authorization: aud.walletId, ledger: "sandbox.nzd.wallet" }),
      "INACTIVE_ASSET",
    );
  });

  it("answers INVALID_LEDGER for no such ledger and LEDGER_NOT_ENABLED for a ledger the request does not offer", async () => {
    const { request } = await buildRequest();
    await expectCode(
      payRequest(payer, { requestId: request.id, authorization: "x", ledger: "no.such.ledger" }),
      "INVALID_LEDGER",
    );
    await expectCode(payRequest(payer, { requestId: request.id, authorization: "x", ledger: "not-dotted" }), "INVALID_LEDGER");
    await buildWallet(1, "AUD"); // makes sandbox.aud.wallet exist
    await expectCode(
      payRequest(payer, { requestId: request.id, authorization: "x", ledger: "sandbox.aud.wallet" }),
      "LEDGER_NOT_ENABLED",
    );
  });

  it("validates requestId and authorization", async () => {
    const { request } = await buildRequest();
    await expectCode(payRequest(payer, { requestId: "abc", authorization: "x", ledger: "test.uplink" }), "REQUEST_NOT_FOUND");
    await expectCode(payRequest(payer, { requestId: "", authorization: "x", ledger: "test.uplink" }), "INVALID_REQUEST_ID");
    await expectCode(
      payRequest(payer, { requestId: request.id, authorization: "  ", ledger: "test.uplink" }),
      "INVALID_AUTHORIZATION",
    );
    await expectCode(
      payRequest(payer, { requestId: crypto.randomUUID(), authorization: "x", ledger: "test.uplink" }),
      "REQUEST_NOT_FOUND",
    );
  });

  it("answers REQUEST_PAID, REQUEST_CANCELLED and REQUEST_EXPIRED for requests that are no longer new", async () => {
    const pay = (requestId: string, ctx = payer) => payRequest(ctx, { requestId, authorization: "x", ledger: "test.uplink" });

    const { request: paid } = await buildRequest();
    await pay(paid.id);
    await expectCode(pay(paid.id), "REQUEST_PAID");

    const { merchant, request: cancelled } = await buildRequest();
    await cancelRequest(merchant.ctx, { requestId: cancelled.id });
    await expectCode(pay(cancelled.id), "REQUEST_CANCELLED");

    const { request: overdue } = await buildRequest({ paymentExpirySeconds: 60 });
    const later = contextFor(payer.actor, new Date(overdue.expiresAt.getTime() + 1));
    await expectCode(pay(overdue.id, later), "REQUEST_EXPIRED");
    expect(await db.paymentRequest.findUniqueOrThrow({ where: { id: overdue.id } })).toMatchObject({ status: "NEW" });
  });

  it("writes one outbox row with the notification payload when the request has a notifyUrl", async () => {
    const { request } = await buildRequest({ amount: 700, notifyUrl: "http://127.0.0.1:9/hook", externalReference: "inv-7" });
    const paid = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    const [event, ...rest] = await outboxFor(request.id);
    expect(rest).toHaveLength(0);
    expect(event).toMatchObject({ url: "http://127.0.0.1:9/hook", state: "PENDING", transactionId: paid.purchase!.id });
    expect(event!.payload).toMatchObject({
      transactionType: "PURCHASE",
      state: "completed",
      amount: 700,
      ledger: "test.uplink",
      request: { requestId: request.id, externalReference: "inv-7", denomination: { asset: "NZD", amount: 700 } },
    });
  });

  it("writes no outbox row without a notifyUrl", async () => {
    const { request } = await buildRequest();
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    expect(await outboxFor(request.id)).toHaveLength(0);
  });

  it("gives exactly one purchase when 50 payers pay one request at once", async () => {
    await raceToPay(({ requestId, walletId }) =>
      outcomeOf(payRequest(payer, { requestId, authorization: walletId, ledger: "sandbox.nzd.wallet" })),
    );
  });

  it("settles a pay racing a cancel and the expiry sweep one way: paid, cancelled or expired, never two", async () => {
    for (let round = 0; round < 12; round++) {
      const merchant = await buildMerchant();
      const created = new Date(Date.now() - 1_500);
      const { request } = await buildRequest({ merchant, amount: 700, paymentExpirySeconds: 1 });
      // Pays and the cancel see the request still open; the sweep sees it overdue.
      await db.paymentRequest.update({
        where: { id: request.id },
        data: { createdAt: created, expiresAt: new Date(created.getTime() + 2_000) },
      });
      const open = new Date(created.getTime() + 1_000);
      const results = await Promise.allSettled([
        ...Array.from({ length: 5 }, () =>
          payRequest(contextFor(payer.actor, open), { requestId: request.id, authorization: "x", ledger: "test.uplink" }),
        ),
        cancelRequest(merchant.at(open), { requestId: request.id }),
        expireOverdueRequests(new Date(created.getTime() + 3_000), { merchantId: merchant.merchantId }),
      ]);
      const stored = await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } });
      const purchases = await db.transaction.count({ where: { requestId: request.id } });
      const trail = await db.activity.findMany({ where: { requestId: request.id, action: { not: "request.created" } } });
      const paid = results.slice(0, 5).filter((r) => r.status === "fulfilled").length;
      const cancelled = results[5]!.status === "fulfilled";
      const expiredCount = results[6]!.status === "fulfilled" ? (results[6] as PromiseFulfilledResult<number>).value : 0;
      expect({ paid, cancelled: cancelled ? 1 : 0, expired: expiredCount }).toEqual({
        paid: stored.status === "PAID" ? 1 : 0,
        cancelled: stored.status === "CANCELLED" ? 1 : 0,
        expired: stored.status === "EXPIRED" ? 1 : 0,
      });
      expect(purchases).toBe(stored.status === "PAID" ? 1 : 0);
      expect(trail.map((a) => a.action)).toEqual([`request.${stored.status.toLowerCase()}`]);
      for (const failure of results.filter((r) => r.status === "rejected"))
        expect(failure.reason.code).toBe(`REQUEST_${stored.status}`);
    }
  });

  it("never overdraws a wallet paying many requests at once", async () => {
    const wallet = await buildWallet(2500);
    const merchant = await buildMerchant();
    const requests = await Promise.all(Array.from({ length: 5 }, () => buildRequest({ merchant, amount: 1000 })));
    const results = await Promise.allSettled(
      requests.map(({ request }) =>
        payRequest(payer, { requestId: request.id, authorization: wallet.walletId, ledger: "sandbox.nzd.wallet" }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(await walletBalance(wallet.walletId)).toBe(500n);
  });
});
