import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { expireOverdueRequests } from "../../src/domain/requests/expire.js";
import { getRequest } from "../../src/domain/requests/info.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { effectiveStatus } from "../../src/domain/requests/status.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, buildRequest, contextFor, payer } from "../factories.js";

describe("requests.info", () => {
  it("reads a request by id and by requestCode", async () => {
    const { merchant, request } = await buildRequest();
    expect((await getRequest(merchant.ctx, { requestId: request.id })).id).toBe(request.id);
    expect((await getRequest(merchant.ctx, { requestCode: request.requestCode })).id).toBe(request.id);
  });

  it("lets a payer key read any request, by id or by code", async () => {
    const { request } = await buildRequest();
    expect((await getRequest(payer, { requestCode: request.requestCode })).id).toBe(request.id);
    expect((await getRequest(payer, { requestId: request.id })).options).toHaveLength(2);
  });

  it("hides another merchant's request", async () => {
    const { request } = await buildRequest();
    const other = await buildMerchant();
    await expectCode(getRequest(other.ctx, { requestId: request.id }), "REQUEST_NOT_FOUND");
    await expectCode(getRequest(other.ctx, { requestCode: request.requestCode }), "REQUEST_NOT_FOUND");
  });

  it("answers INVALID_REQUEST_ID without an identifier or with an over-long one, REQUEST_NOT_FOUND for one of another format", async () => {
    const merchant = await buildMerchant();
    await expectCode(getRequest(merchant.ctx, {}), "INVALID_REQUEST_ID");
    await expectCode(getRequest(merchant.ctx, { requestId: "x".repeat(129) }), "INVALID_REQUEST_ID");
    await expectCode(getRequest(merchant.ctx, { requestId: "123" }), "REQUEST_NOT_FOUND");
    await expectCode(getRequest(merchant.ctx, { requestId: crypto.randomUUID() }), "REQUEST_NOT_FOUND");
  });
});

describe("expiry", () => {
  it("reads an overdue request as EXPIRED before any sweep, and the sweep stores it", async () => {
    const { merchant, request } = await buildRequest({ paymentExpirySeconds: 30 });
    const justAfter = new Date(request.expiresAt.getTime() + 1);
    expect(effectiveStatus(await getRequest(merchant.ctx, { requestId: request.id }), request.expiresAt)).toBe("EXPIRED");
    expect(effectiveStatus(request, new Date(request.expiresAt.getTime() - 1))).toBe("NEW");

    // Swept within this merchant only: other files' requests are not this test's to expire.
    expect(await expireOverdueRequests(justAfter, { merchantId: merchant.merchantId })).toBe(1);
    expect(await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "EXPIRED" });
  });

  it("leaves paid, cancelled and still-open requests alone", async () => {
    const merchant = await buildMerchant();
    const { request: open } = await buildRequest({ merchant, paymentExpirySeconds: 3600 });
    // Past their expiry at the sweep's clock below, but closed before it.
    const { request: paid } = await buildRequest({ merchant, paymentExpirySeconds: 30 });
    await payRequest(payer, { requestId: paid.id, authorization: "x", ledger: "test.uplink" });
    const { request: cancelled } = await buildRequest({ merchant, paymentExpirySeconds: 30 });
    await cancelRequest(merchant.ctx, { requestId: cancelled.id });

    const sweptAt = new Date(open.createdAt.getTime() + 60_000);
    expect(await expireOverdueRequests(sweptAt, { merchantId: merchant.merchantId })).toBe(0);
    const statuses = await db.paymentRequest.findMany({
      where: { merchantId: merchant.merchantId },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [open.id]: "NEW",
      [paid.id]: "PAID",
      [cancelled.id]: "CANCELLED",
    });
  });
});

describe("requests.cancel", () => {
  it("cancels an open request", async () => {
    const { merchant, request } = await buildRequest();
    const cancelled = await cancelRequest(merchant.ctx, { requestId: request.id });
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.purchase).toBeNull();
    // What the cancel answers is the request as it now reads.
    expect(cancelled).toEqual(await getRequest(merchant.ctx, { requestId: request.id }));
  });

  it("answers REQUEST_CANCELLED, REQUEST_PAID and REQUEST_EXPIRED for closed requests", async () => {
    const { merchant, request } = await buildRequest();
    await cancelRequest(merchant.ctx, { requestId: request.id });
    await expectCode(cancelRequest(merchant.ctx, { requestId: request.id }), "REQUEST_CANCELLED");

    const { request: paid } = await buildRequest({ merchant });
    await payRequest(payer, { requestId: paid.id, authorization: "x", ledger: "test.uplink" });
    await expectCode(cancelRequest(merchant.ctx, { requestId: paid.id }), "REQUEST_PAID");

    const { request: overdue } = await buildRequest({ merchant, paymentExpirySeconds: 5 });
    const later = contextFor(merchant.ctx.actor, new Date(overdue.expiresAt.getTime() + 1000));
    await expectCode(cancelRequest(later, { requestId: overdue.id }), "REQUEST_EXPIRED");
  });

  it("is for merchant keys on their own requests only", async () => {
    const { request } = await buildRequest();
    const other = await buildMerchant();
    await expectCode(cancelRequest(payer, { requestId: request.id }), "FORBIDDEN");
    await expectCode(cancelRequest(other.ctx, { requestId: request.id }), "REQUEST_NOT_FOUND");
    await expectCode(cancelRequest(other.ctx, { requestId: "x" }), "REQUEST_NOT_FOUND");
    expect(await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "NEW" });
  });

  it("lets exactly one of a racing pay and cancel win", async () => {
    const { merchant, request } = await buildRequest();
    const [pay, cancel] = await Promise.allSettled([
      payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" }),
      cancelRequest(merchant.ctx, { requestId: request.id }),
    ]);
    expect([pay.status, cancel.status].filter((s) => s === "fulfilled")).toHaveLength(1);
    const stored = await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id }, include: { transactions: true } });
    expect(stored.status === "PAID").toBe(stored.transactions.length === 1);
  });
});
