import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { rest } from "../fixtures.js";
import { buildMerchant, buildPayerKey } from "../factories.js";

/** Edges found by trying to break the service: each a clear 4xx that changes nothing. */
describe("bad input at the edges", () => {
  const requestCount = (merchantId: string) => db.paymentRequest.count({ where: { merchantId } });

  it("answers a NUL in any text parameter with that parameter's INVALID_* code, storing nothing", async () => {
    const merchant = await buildMerchant();
    const base = { merchantId: merchant.merchantId, asset: "NZD", amount: "300" };
    for (const [param, code] of [
      ["description", "INVALID_DESCRIPTION"],
      ["externalReference", "INVALID_REFERENCE"],
      ["notifyUrl", "INVALID_NOTIFY_URL"],
      ["asset", "INVALID_ASSET"],
    ] as const) {
      const { status, body } = await rest("requests.create", {
        apiKey: merchant.apiKey,
        json: { ...base, [param]: param === "notifyUrl" ? "http://127.0.0.1:9/\u0000hook" : "A\u0000B" },
      });
      expect({ param, status, message: body.message }).toEqual({ param, status: 400, message: code });
    }
    expect(await requestCount(merchant.merchantId)).toBe(0);

    const info = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestCode: "\u0000" } });
    expect(info).toMatchObject({ status: 400, body: { message: "INVALID_REQUEST_ID" } });

    // A refund's reference as well: the purchase keeps its full refundable amount.
    const created = await rest("requests.create", { apiKey: merchant.apiKey, json: base });
    const payer = await buildPayerKey();
    const paid = await rest("requests.pay", {
      apiKey: payer,
      json: { requestId: created.body.requestId, ledger: "test.uplink", paymentAuthorization: "tok" },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const refund = await rest("transactions.refund", {
      apiKey: merchant.apiKey,
      json: { transactionId: paid.body.paidBy.transactionId, amount: 100, externalReference: "r\u00001" },
    });
    expect(refund).toMatchObject({ status: 400, body: { message: "INVALID_REFERENCE" } });
    expect(await db.transaction.count({ where: { purchaseId: paid.body.paidBy.transactionId } })).toBe(0);
  });

  it("refuses a body nested thousands of levels deep with 400, Idempotency-Key or not", async () => {
    const merchant = await buildMerchant();
    const deep = `{"merchantId":"${merchant.merchantId}","asset":"NZD","amount":300,"extra":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    for (const headers of [{}, { "idempotency-key": "deep-1" }] as Record<string, string>[]) {
      const { status, body } = await rest("requests.create", {
        apiKey: merchant.apiKey,
        headers,
        raw: { body: deep, contentType: "application/json" },
      });
      expect({ status, message: body.message }).toEqual({ status: 400, message: "BAD_REQUEST" });
    }
    expect(await requestCount(merchant.merchantId)).toBe(0);
  });

  it("answers identifiers of any format that name nothing with 404 *_NOT_FOUND", async () => {
    const merchant = await buildMerchant();
    const info = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: "does-not-exist" } });
    expect(info).toMatchObject({ status: 404, body: { message: "REQUEST_NOT_FOUND" } });
    const refund = await rest("transactions.refund", { apiKey: merchant.apiKey, json: { transactionId: "nope", amount: 1 } });
    expect(refund).toMatchObject({ status: 404, body: { message: "TRANSACTION_NOT_FOUND" } });
    // Only a missing, empty or over-long value is malformed.
    const long = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: "x".repeat(129) } });
    expect(long).toMatchObject({ status: 400, body: { message: "INVALID_REQUEST_ID" } });
  });

  it("offers no test.uplink option for an asset the merchant does not accept", async () => {
    const merchant = await buildMerchant("NZD");
    for (const asset of ["XYZ", "nzd", "AUD"]) {
      const { status, body } = await rest("requests.create", {
        apiKey: merchant.apiKey,
        json: { merchantId: merchant.merchantId, asset, amount: 300 },
      });
      expect({ asset, status, message: body.message }).toEqual({ asset, status: 403, message: "NO_AVAILABLE_PAYMENT_OPTIONS" });
    }
    expect(await requestCount(merchant.merchantId)).toBe(0);
    // Its own currency is offered at both of its ledgers.
    const nzd = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 300 },
    });
    expect(nzd.body.payments.map((p: { ledger: string }) => p.ledger)).toEqual(["test.uplink", "sandbox.nzd.wallet"]);
  });
});
