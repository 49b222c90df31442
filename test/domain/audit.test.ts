import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { requestActivities } from "../../src/domain/audit/trail.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { expireOverdueRequests } from "../../src/domain/requests/expire.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, buildRequest, contextFor, payer } from "../factories.js";
import { app } from "../fixtures.js";

describe("audit trail", () => {
  it("records create → pay → refund → refund with actor, correlation id and outcome, and nothing for failures", async () => {
    const { merchant, request } = await buildRequest({ amount: 1000 });
    const paid = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    const purchaseId = paid.purchase!.id;
    await refundTransaction(merchant.ctx, { transactionId: purchaseId, amount: 300, externalReference: "a" });
    await refundTransaction(merchant.ctx, { transactionId: purchaseId, amount: 200, externalReference: "b" });
    await expectCode(
      refundTransaction(merchant.ctx, { transactionId: purchaseId, amount: 900, externalReference: "c" }),
      "INVALID_AMOUNT",
    );

    const trail = await requestActivities(merchant.ctx, request.id);
    expect(trail.map((a) => [a.action, a.actor, a.outcome])).toEqual([
      ["request.created", "mk_test", "NEW"],
      ["request.paid", "pk_test", `PAID 1000 at test.uplink`],
      ["transaction.refunded", "mk_test", `REFUNDED 300 of ${purchaseId}`],
      ["transaction.refunded", "mk_test", `REFUNDED 200 of ${purchaseId}`],
    ]);
    expect(trail[1]!.correlationId).toBe(payer.requestId);
    expect(trail[1]!.transactionId).toBe(purchaseId);
  });

  it("keeps the order the changes were made in, even when they share a millisecond", async () => {
    const now = new Date();
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant: { ...merchant, ctx: merchant.at(now) }, amount: 1000 });
    const paid = await payRequest(contextFor(payer.actor, now), {
      requestId: request.id,
      authorization: "x",
      ledger: "test.uplink",
    });
    for (const amount of [100, 200, 300])
      await refundTransaction(merchant.at(now), { transactionId: paid.purchase!.id, amount, externalReference: `r${amount}` });

    const trail = await requestActivities(merchant.ctx, request.id);
    expect(new Set(trail.map((a) => a.createdAt.getTime()))).toEqual(new Set([now.getTime()]));
    expect(trail.map((a) => a.outcome)).toEqual([
      "NEW",
      "PAID 1000 at test.uplink",
      `REFUNDED 100 of ${paid.purchase!.id}`,
      `REFUNDED 200 of ${paid.purchase!.id}`,
      `REFUNDED 300 of ${paid.purchase!.id}`,
    ]);
  });

  it("records cancellations and expiries by the sweep as the system", async () => {
    const merchant = await buildMerchant();
    const { request: cancelled } = await buildRequest({ merchant });
    await cancelRequest(merchant.ctx, { requestId: cancelled.id });
    const { request: overdue } = await buildRequest({ merchant, paymentExpirySeconds: 1 });
    expect(await expireOverdueRequests(new Date(overdue.expiresAt.getTime() + 1), { merchantId: merchant.merchantId })).toBe(1);
    expect((await requestActivities(merchant.ctx, cancelled.id)).at(-1)).toMatchObject({
      action: "request.cancelled",
      outcome: "CANCELLED",
    });
    expect((await requestActivities(merchant.ctx, overdue.id)).at(-1)).toMatchObject({
      action: "request.expired",
      actor: "system",
    });
  });

  it("cannot be changed: updates and deletes of activity rows are discarded", async () => {
    const { merchant, request } = await buildRequest();
    await db.$executeRaw`UPDATE activity SET outcome = 'forged' WHERE request_id = ${request.id}::uuid`;
    await db.$executeRaw`DELETE FROM activity WHERE request_id = ${request.id}::uuid`;
    expect(await requestActivities(merchant.ctx, request.id)).toMatchObject([{ action: "request.created", outcome: "NEW" }]);
  });

  it("is the merchant's only", async () => {
    const { request } = await buildRequest();
    const other = await buildMerchant();
    expect(await requestActivities(other.ctx, request.id)).toEqual([]);
    await expectCode(requestActivities(payer, request.id), "FORBIDDEN");
  });
});

describe("health", () => {
  it("answers /health and /ready while the database and Redis are reachable", async () => {
    expect((await app.fetch(new Request("http://test/health"))).status).toBe(200);
    const ready = await app.fetch(new Request("http://test/ready"));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", database: "ok", redis: "ok" });
  });
});
