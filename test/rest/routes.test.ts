import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { rest } from "../fixtures.js";
import { buildMerchant, buildPayerKey, buildWallet, walletBalance } from "../factories.js";

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function created(merchant: { merchantId: string; apiKey: string }, extra: Record<string, string> = {}) {
  const { status, body } = await rest("requests.create", {
    apiKey: merchant.apiKey,
    form: { merchantId: merchant.merchantId, asset: "NZD", amount: "300", ...extra },
  });
  expect(status).toBe(200);
  return body;
}

describe("requests.create", () => {
  it("takes form parameters and answers the legacy request object", async () => {
    const merchant = await buildMerchant();
    const body = await created(merchant, { description: "Flat white", externalReference: "order-1" });
    expect(body).toMatchObject({
      merchantId: merchant.merchantId,
      externalReference: "order-1",
      description: "Flat white",
      denomination: { amount: 300, asset: "NZD" },
      status: "new",
      payments: [
        { amount: 300, ledger: "test.uplink", methods: ["qr_code", "nfc", "auth_alphanumeric", "auth_numeric"] },
        { amount: 300, ledger: "sandbox.nzd.wallet", methods: ["qr_code", "nfc", "auth_alphanumeric", "auth_numeric"] },
      ],
    });
    for (const field of ["createdAt", "updatedAt", "expiresAt"]) expect(body[field]).toMatch(ISO_MS);
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(120_000);
    // Absent optional fields are omitted, never null.
    for (const field of ["paidBy", "clientId", "notifyUrl"]) expect(body).not.toHaveProperty(field);
    expect(JSON.stringify(body)).not.toContain("null");
  });

  it("takes JSON bodies with a numeric amount, query-string parameters, and both methods", async () => {
    const merchant = await buildMerchant();
    const json = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: {
        merchantId: merchant.merchantId,
        asset: "NZD",
        amount: 1250,
        paymentExpirySeconds: 600,
        notifyUrl: "http://127.0.0.1:9/h",
      },
    });
    expect(json.body).toMatchObject({ denomination: { amount: 1250 }, notifyUrl: "http://127.0.0.1:9/h" });
    expect(Date.parse(json.body.expiresAt) - Date.parse(json.body.createdAt)).toBe(600_000);

    const viaGet = await rest("requests.create", {
      method: "GET",
      apiKey: merchant.apiKey,
      query: { merchantId: merchant.merchantId, asset: "NZD", amount: "5" },
    });
    expect(viaGet).toMatchObject({ status: 200, body: { denomination: { amount: 5 }, status: "new" } });

    const viaPostQuery = await rest("requests.create", {
      method: "POST",
      apiKey: merchant.apiKey,
      query: { merchantId: merchant.merchantId, asset: "NZD", amount: "6" },
    });
    expect(viaPostQuery.body.denomination.amount).toBe(6);
  });

  it("lets the body win over the query string", async () => {
    const merchant = await buildMerchant();
    const { body } = await rest("requests.create", {
      apiKey: merchant.apiKey,
      query: { merchantId: merchant.merchantId, asset: "NZD", amount: "1" },
      form: { amount: "777" },
    });
    expect(body.denomination.amount).toBe(777);
  });

  it.each([
    [{ amount: "0" }, "INVALID_AMOUNT"],
    [{ amount: "1.5" }, "INVALID_AMOUNT"],
    [{ amount: "9007199254740992" }, "INVALID_AMOUNT"],
    [{ asset: "" }, "INVALID_ASSET"],
    [{ merchantId: "x".repeat(129) }, "INVALID_MERCHANT_ID"],
    [{ clientId: "x".repeat(129) }, "INVALID_CLIENT_ID"],
    [{ description: "d".repeat(1001) }, "INVALID_DESCRIPTION"],
    [{ externalReference: "r".repeat(200) }, "INVALID_REFERENCE"],
    [{ notifyUrl: "mailto:x@y.z" }, "INVALID_NOTIFY_URL"],
    [{ paymentExpirySeconds: "86400" }, "INVALID_PAYMENT_EXPIRY_SECONDS"],
  ])("answers 400 for %o with %s", async (override, code) => {
    const merchant = await buildMerchant();
    const { status, body } = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: merchant.merchantId, asset: "NZD", amount: "300", ...override },
    });
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, error: "Bad Request", message: code, reason: expect.any(String) });
  });

  it("answers 403 NO_AVAILABLE_PAYMENT_OPTIONS and MERCHANT_CONFIGURATION_NOT_FOUND, 404 MERCHANT_NOT_FOUND", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    await db.configurationItem.deleteMany({ where: { merchantId: merchant.merchantId, ledgerId: "test.uplink" } });
    const noOptions = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: merchant.merchantId, asset: "USD", amount: "1" },
    });
    expect(noOptions).toMatchObject({ status: 403, body: { error: "Forbidden", message: "NO_AVAILABLE_PAYMENT_OPTIONS" } });

    const unknownClient = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: merchant.merchantId, asset: "NZD", amount: "1", clientId: crypto.randomUUID() },
    });
    expect(unknownClient).toMatchObject({ status: 403, body: { message: "MERCHANT_CONFIGURATION_NOT_FOUND" } });

    const foreign = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: other.merchantId, asset: "NZD", amount: "1" },
    });
    expect(foreign).toMatchObject({ status: 404, body: { statusCode: 404, error: "Not Found", message: "MERCHANT_NOT_FOUND" } });
  });

  it("returns the same request for a repeated externalReference, 400 REPEAT_REFERENCE for different parameters", async () => {
    const merchant = await buildMerchant();
    const first = await created(merchant, { externalReference: "inv-9" });
    const again = await created(merchant, { externalReference: "inv-9" });
    expect(again.requestId).toBe(first.requestId);
    const different = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: merchant.merchantId, asset: "NZD", amount: "301", externalReference: "inv-9" },
    });
    expect(different).toMatchObject({ status: 400, body: { message: "REPEAT_REFERENCE" } });
  });
});

describe("requests.info", () => {
  it("reads by requestId (merchant) and by requestCode (payer)", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const request = await created(merchant);
    const byId = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: request.requestId } });
    expect(byId).toMatchObject({ status: 200, body: { requestId: request.requestId, status: "new" } });
    const byCode = await rest("requests.info", { method: "POST", apiKey: payerKey, json: { requestCode: request.requestCode } });
    expect(byCode.body.requestId).toBe(request.requestId);
  });

  it("answers 400 INVALID_REQUEST_ID and 404 REQUEST_NOT_FOUND", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const request = await created(merchant);
    expect(await rest("requests.info", { apiKey: merchant.apiKey })).toMatchObject({
      status: 400,
      body: { message: "INVALID_REQUEST_ID" },
    });
    expect(await rest("requests.info", { apiKey: other.apiKey, query: { requestId: request.requestId } })).toMatchObject({
      status: 404,
      body: { message: "REQUEST_NOT_FOUND" },
    });
  });

  it("shows an overdue request as expired", async () => {
    const merchant = await buildMerchant();
    const request = await created(merchant);
    await db.paymentRequest.update({ where: { id: request.requestId }, data: { expiresAt: new Date(Date.now() - 1) } });
    const { body } = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: request.requestId } });
    expect(body.status).toBe("expired");
  });
});

describe("requests.pay", () => {
  it("pays from a sandbox wallet and answers paidBy with its transactionId", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const wallet = await buildWallet(1000);
    const request = await created(merchant);
    const { status, body } = await rest("requests.pay", {
      apiKey: payerKey,
      form: { requestId: request.requestId, ledger: "sandbox.nzd.wallet", authorization: wallet.walletId },
    });
    expect(status).toBe(200);
    expect(body.status).toBe("paid");
    // The payer sees the payer view of paidBy; the merchant sees all of it.
    expect(Object.keys(body.paidBy).sort()).toEqual(["amount", "ledger", "paidAt", "transactionId"]);
    expect(body.paidBy).toMatchObject({ amount: 300, ledger: "sandbox.nzd.wallet" });
    expect(body.paidBy.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.paidBy.paidAt).toMatch(ISO_MS);
    const { body: seen } = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: request.requestId } });
    expect(seen.paidBy).toMatchObject({
      transactionId: body.paidBy.transactionId,
      amount: 300,
      ledger: "sandbox.nzd.wallet",
      account: "",
      responseCode: "00",
      type: "sandbox-wallet",
    });
    expect(seen.paidBy.settlementDate).toMatch(ISO_MS);
    expect(await walletBalance(wallet.walletId)).toBe(700n);
  });

  it("accepts paymentAuthorization as another name for authorization", async () => {
    const merchant = await buildMerchant();
    const request = await created(merchant);
    const { body } = await rest("requests.pay", {
      apiKey: merchant.apiKey,
      json: { requestId: request.requestId, ledger: "test.uplink", paymentAuthorization: "tok" },
    });
    expect(body.status).toBe("paid");

    const same = await created(merchant);
    const both = await rest("requests.pay", {
      apiKey: merchant.apiKey,
      form: { requestId: same.requestId, ledger: "test.uplink", paymentAuthorization: "tok", authorization: "tok" },
    });
    expect(both.body.status).toBe("paid");
  });

  it("answers 400 INVALID_AUTHORIZATION when authorization and paymentAuthorization differ, and changes nothing", async () => {
    const merchant = await buildMerchant();
    const request = await created(merchant);
    const { status, body } = await rest("requests.pay", {
      apiKey: merchant.apiKey,
      form: { requestId: request.requestId, ledger: "test.uplink", paymentAuthorization: "a", authorization: "b" },
    });
    expect([status, body.message]).toEqual([400, "INVALID_AUTHORIZATION"]);
    expect(await db.transaction.count({ where: { requestId: request.requestId } })).toBe(0);
  });

  it("answers each refusal with its status and CODE", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const poor = await buildWallet(1);
    const pay = (requestId: string, ledger: string, authorization: string) =>
      rest("requests.pay", { apiKey: payerKey, form: { requestId, ledger, authorization } });
    const request = await created(merchant);

    expect(await pay(request.requestId, "sandbox.nzd.wallet", poor.walletId)).toMatchObject({
      status: 403,
      body: { message: "INSUFFICIENT_ASSET_BALANCE" },
    });
    expect(await pay(request.requestId, "sandbox.nzd.wallet", crypto.randomUUID())).toMatchObject({
      status: 403,
      body: { message: "INACTIVE_ASSET" },
    });
    expect(await pay(request.requestId, "no.such.ledger", "x")).toMatchObject({
      status: 400,
      body: { message: "INVALID_LEDGER" },
    });
    await buildWallet(1, "AUD");
    expect(await pay(request.requestId, "sandbox.aud.wallet", "x")).toMatchObject({
      status: 400,
      body: { message: "LEDGER_NOT_ENABLED" },
    });
    expect(await pay("nope", "test.uplink", "x")).toMatchObject({ status: 404, body: { message: "REQUEST_NOT_FOUND" } });
    expect(await pay("", "test.uplink", "x")).toMatchObject({ status: 400, body: { message: "INVALID_REQUEST_ID" } });
    expect(await pay(crypto.randomUUID(), "test.uplink", "x")).toMatchObject({
      status: 404,
      body: { message: "REQUEST_NOT_FOUND" },
    });

    expect((await pay(request.requestId, "test.uplink", "x")).status).toBe(200);
    expect(await pay(request.requestId, "test.uplink", "x")).toMatchObject({
      status: 403,
      body: { error: "Forbidden", message: "REQUEST_PAID" },
    });

    const cancelled = await created(merchant);
    await rest("requests.cancel", { apiKey: merchant.apiKey, form: { requestId: cancelled.requestId } });
    expect(await pay(cancelled.requestId, "test.uplink", "x")).toMatchObject({
      status: 403,
      body: { message: "REQUEST_CANCELLED" },
    });

    const overdue = await created(merchant);
    await db.paymentRequest.update({ where: { id: overdue.requestId }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await pay(overdue.requestId, "test.uplink", "x")).toMatchObject({ status: 403, body: { message: "REQUEST_EXPIRED" } });
  });
});

describe("requests.cancel", () => {
  it("cancels and answers status cancelled without paidBy", async () => {
    const merchant = await buildMerchant();
    const request = await created(merchant);
    const { status, body } = await rest("requests.cancel", {
      method: "GET",
      apiKey: merchant.apiKey,
      query: { requestId: request.requestId },
    });
    expect(status).toBe(200);
    expect(body.status).toBe("cancelled");
    expect(body).not.toHaveProperty("paidBy");
    expect(await rest("requests.cancel", { apiKey: merchant.apiKey, form: { requestId: request.requestId } })).toMatchObject({
      status: 403,
      body: { message: "REQUEST_CANCELLED" },
    });
  });

  it("answers 403 FORBIDDEN to a payer key", async () => {
    const merchant = await buildMerchant();
    const request = await created(merchant);
    const payerKey = await buildPayerKey();
    expect(await rest("requests.cancel", { apiKey: payerKey, form: { requestId: request.requestId } })).toMatchObject({
      status: 403,
      body: { statusCode: 403, error: "Forbidden", message: "FORBIDDEN" },
    });
  });
});

describe("transactions.refund", () => {
  async function paid() {
    const merchant = await buildMerchant();
    const request = await created(merchant);
    const { body } = await rest("requests.pay", {
      apiKey: merchant.apiKey,
      form: { requestId: request.requestId, ledger: "test.uplink", authorization: "x" },
    });
    return { merchant, transactionId: body.paidBy.transactionId as string, request };
  }

  it("answers the refund transaction in the notification shape", async () => {
    const { merchant, transactionId, request } = await paid();
    const { status, body } = await rest("transactions.refund", {
      apiKey: merchant.apiKey,
      form: { transactionId, amount: "100" },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      transactionType: "REFUND",
      state: "completed",
      amount: 100,
      ledger: "test.uplink",
      request: { requestId: request.requestId, merchantId: merchant.merchantId, denomination: { asset: "NZD", amount: 300 } },
    });
    for (const field of ["createdAt", "updatedAt", "timestamp", "settlementDate"]) expect(body[field]).toMatch(ISO_MS);
    expect(body.transactionId).not.toBe(transactionId);
  });

  it("answers ALREADY_REFUNDED, REPEAT_REFERENCE, INVALID_AMOUNT, INVALID_TRANSACTION_TYPE and TRANSACTION_NOT_FOUND", async () => {
    const { merchant, transactionId } = await paid();
    const refund = (form: Record<string, string>) => rest("transactions.refund", { apiKey: merchant.apiKey, form });

    const first = await refund({ transactionId, amount: "50" });
    expect(await refund({ transactionId, amount: "50" })).toMatchObject({ status: 400, body: { message: "ALREADY_REFUNDED" } });
    await refund({ transactionId, amount: "50", externalReference: "r1" });
    expect((await refund({ transactionId, amount: "50", externalReference: "r1" })).status).toBe(200);
    expect(await refund({ transactionId, amount: "60", externalReference: "r1" })).toMatchObject({
      status: 400,
      body: { message: "REPEAT_REFERENCE" },
    });
    expect(await refund({ transactionId, amount: "201", externalReference: "r2" })).toMatchObject({
      status: 400,
      body: { message: "INVALID_AMOUNT" },
    });
    expect(await refund({ transactionId: first.body.transactionId, amount: "1" })).toMatchObject({
      status: 403,
      body: { message: "INVALID_TRANSACTION_TYPE" },
    });
    expect(await refund({ transactionId: crypto.randomUUID(), amount: "1" })).toMatchObject({
      status: 404,
      body: { message: "TRANSACTION_NOT_FOUND" },
    });
    expect(await refund({ transactionId: "t1", amount: "1" })).toMatchObject({
      status: 404,
      body: { message: "TRANSACTION_NOT_FOUND" },
    });
    expect(await refund({ transactionId: "x".repeat(129), amount: "1" })).toMatchObject({
      status: 400,
      body: { message: "INVALID_TRANSACTION_ID" },
    });
  });
});

describe("merchants.configurations.info", () => {
  it("answers the configuration with icon and units objects", async () => {
    const merchant = await buildMerchant();
    const { status, body } = await rest("merchants.configurations.info", {
      apiKey: merchant.apiKey,
      query: { merchantId: merchant.merchantId },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ merchantId: merchant.merchantId, name: expect.stringMatching(/^Shop /) });
    expect(body).not.toHaveProperty("clientId");
    expect(body.items[1]).toEqual({
      label: "NZD sandbox wallet",
      asset: "sandbox.nzd.wallet",
      index: 1,
      methods: ["qr_code", "nfc", "auth_alphanumeric", "auth_numeric"],
      icon: { image: expect.any(String), mimeType: "image/svg+xml" },
      units: { label: "NZD", factor: 100 },
      fractionalDigits: 2,
      precision: 2,
    });
  });

  it("answers 400 INVALID_MERCHANT_ID, INVALID_CLIENT_ID and 403 MERCHANT_CONFIGURATION_NOT_FOUND (a clientId of any format)", async () => {
    const merchant = await buildMerchant();
    const call = (query: Record<string, string>) => rest("merchants.configurations.info", { apiKey: merchant.apiKey, query });
    expect(await call({})).toMatchObject({ status: 400, body: { message: "INVALID_MERCHANT_ID" } });
    expect(await call({ merchantId: merchant.merchantId, clientId: "c" })).toMatchObject({
      status: 403,
      body: { message: "MERCHANT_CONFIGURATION_NOT_FOUND" },
    });
    expect(await call({ merchantId: merchant.merchantId, clientId: "x".repeat(129) })).toMatchObject({
      status: 400,
      body: { message: "INVALID_CLIENT_ID" },
    });
    expect(await call({ merchantId: merchant.merchantId, clientId: crypto.randomUUID() })).toMatchObject({
      status: 403,
      body: { message: "MERCHANT_CONFIGURATION_NOT_FOUND" },
    });
  });
});

describe("REST transport", () => {
  it("answers 401 KEY_NOT_AUTHORIZED without a key or with an unknown one", async () => {
    expect(await rest("requests.info", { query: { requestId: crypto.randomUUID() } })).toMatchObject({
      status: 401,
      body: { statusCode: 401, error: "Unauthorized", message: "KEY_NOT_AUTHORIZED", reason: expect.any(String) },
    });
    expect((await rest("requests.info", { apiKey: "mk_123456789abc_wrong" })).status).toBe(401);
  });

  it("answers 400 BAD_REQUEST for an unparseable body or an unsupported content type", async () => {
    const merchant = await buildMerchant();
    const send = (body: string, contentType: string) =>
      rest("requests.create", { apiKey: merchant.apiKey, raw: { body, contentType } });
    expect(await send("{not json", "application/json")).toMatchObject({ status: 400, body: { message: "BAD_REQUEST" } });
    expect(await send("[1,2]", "application/json")).toMatchObject({ status: 400, body: { message: "BAD_REQUEST" } });
    expect(await send("<xml/>", "application/xml")).toMatchObject({ status: 400, body: { message: "BAD_REQUEST" } });
    expect(await send("a".repeat(70_000), "application/x-www-form-urlencoded")).toMatchObject({
      status: 400,
      body: { message: "BAD_REQUEST" },
    });
  });

  it("answers unknown routes with the contract's 404", async () => {
    for (const path of ["requests.nope", "nothing"]) {
      expect(await rest(path)).toMatchObject({
        status: 404,
        body: { statusCode: 404, error: "Not Found", message: "Not Found", reason: expect.any(String) },
      });
    }
  });
});
