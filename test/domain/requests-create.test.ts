import { describe, expect, it } from "vitest";
import { createClient } from "../../src/domain/clients/create.js";
import { createRequest } from "../../src/domain/requests/create.js";
import { getRequest } from "../../src/domain/requests/info.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, operator, payer } from "../factories.js";

describe("requests.create", () => {
  it("creates a NEW request with one option per matching configuration item", async () => {
    const merchant = await buildMerchant();
    const now = new Date("2026-11-21T10:00:00.000Z");
    const request = await createRequest(merchant.at(now), {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: "300",
      description: "Flat white",
      notifyUrl: "http://127.0.0.1:9/hooks",
    });

    expect(request).toMatchObject({
      status: "NEW",
      amount: 300n,
      asset: "NZD",
      description: "Flat white",
      paymentExpirySeconds: 120,
    });
    expect(request.expiresAt.toISOString()).toBe("2026-11-21T10:02:00.000Z");
    expect(request.requestCode).toMatch(/^[0-9A-Z]{12}$/);
    expect(request.options.map((o) => [o.ledgerId, o.amount, o.methods.length])).toEqual([
      ["test.uplink", 300n, 4],
      ["sandbox.nzd.wallet", 300n, 4],
    ]);
    // What the create answers (built from what it wrote) is the request as it then reads.
    expect(request).toEqual(await getRequest(merchant.ctx, { requestId: request.id }));
  });

  it("honours paymentExpirySeconds", async () => {
    const merchant = await buildMerchant();
    const now = new Date("2026-11-21T10:00:00.000Z");
    const request = await createRequest(merchant.at(now), {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: 1,
      paymentExpirySeconds: "86399",
    });
    expect(request.expiresAt.getTime() - now.getTime()).toBe(86_399_000);
  });

  it("offers a client's own items when given its clientId", async () => {
    const merchant = await buildMerchant();
    const { clientId } = await createClient(operator, { merchantId: merchant.merchantId });
    const request = await createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 5, clientId });
    expect(request.clientId).toBe(clientId);
    expect(request.options).toHaveLength(2);
  });

  it.each([
    ["zero", 0],
    ["negative", -5],
    ["fractional", 1.5],
    ["fractional string", "1.50"],
    ["exponent", "1e3"],
    ["above 2^53-1", "9007199254740992"],
    ["unsafe number", 2 ** 53],
    ["words", "ten"],
    ["missing", undefined],
  ])("rejects a %s amount with INVALID_AMOUNT", async (_label, amount) => {
    const merchant = await buildMerchant();
    await expectCode(
      createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: amount as number }),
      "INVALID_AMOUNT",
    );
  });

  it("accepts the largest safe amount", async () => {
    const merchant = await buildMerchant();
    const request = await createRequest(merchant.ctx, {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: "9007199254740991",
    });
    expect(request.amount).toBe(9007199254740991n);
  });

  it.each([
    ["asset", { asset: "" }, "INVALID_ASSET"],
    ["asset", { asset: "N Z D" }, "INVALID_ASSET"],
    ["merchantId", { merchantId: "x".repeat(129) }, "INVALID_MERCHANT_ID"],
    // An id of any format that names nothing (visible to the key) is not found, never malformed.
    ["merchantId", { merchantId: "shop-1" }, "MERCHANT_NOT_FOUND"],
    ["clientId", { clientId: "x".repeat(129) }, "INVALID_CLIENT_ID"],
    ["clientId", { clientId: "nope" }, "MERCHANT_CONFIGURATION_NOT_FOUND"],
    ["description", { description: "x".repeat(1001) }, "INVALID_DESCRIPTION"],
    ["externalReference", { externalReference: "r".repeat(129) }, "INVALID_REFERENCE"],
    ["notifyUrl", { notifyUrl: "ftp://127.0.0.1/hook" }, "INVALID_NOTIFY_URL"],
    ["notifyUrl", { notifyUrl: "not a url" }, "INVALID_NOTIFY_URL"],
    ["paymentExpirySeconds", { paymentExpirySeconds: 0 }, "INVALID_PAYMENT_EXPIRY_SECONDS"],
    ["paymentExpirySeconds", { paymentExpirySeconds: 86400 }, "INVALID_PAYMENT_EXPIRY_SECONDS"],
  ] as const)("refuses a bad %s (%o) with %s and stores nothing", async (_field, override, code) => {
    const merchant = await buildMerchant();
    await expectCode(
      createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 100, ...override }),
      code,
    );
    const { db } = await import("../prisma.js");
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("refuses an asset no configuration item can be paid in", async () => {
    const merchant = await buildMerchant();
    // test.uplink takes any currency; without it the merchant can only be paid in NZD.
    const { db } = await import("../prisma.js");
    await db.configurationItem.deleteMany({ where: { merchantId: merchant.merchantId, ledgerId: "test.uplink" } });
    await expectCode(
      createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "AUD", amount: 100 }),
      "NO_AVAILABLE_PAYMENT_OPTIONS",
    );
  });

  it("refuses another merchant's clientId with MERCHANT_CONFIGURATION_NOT_FOUND", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const { clientId } = await createClient(operator, { merchantId: other.merchantId });
    await expectCode(
      createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 100, clientId }),
      "MERCHANT_CONFIGURATION_NOT_FOUND",
    );
  });

  it("does not let a merchant key create for another merchant", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    await expectCode(
      createRequest(merchant.ctx, { merchantId: other.merchantId, asset: "NZD", amount: 100 }),
      "MERCHANT_NOT_FOUND",
    );
  });

  it("does not let a payer key create requests", async () => {
    const merchant = await buildMerchant();
    await expectCode(createRequest(payer, { merchantId: merchant.merchantId, asset: "NZD", amount: 100 }), "FORBIDDEN");
  });

  describe("externalReference", () => {
    it("returns the existing request for a repeat with identical parameters", async () => {
      const merchant = await buildMerchant();
      const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 250, externalReference: "order-1" };
      const first = await createRequest(merchant.ctx, input);
      const again = await createRequest(merchant.ctx, { ...input, amount: "250" });
      expect(again.id).toBe(first.id);
    });

    it("answers REPEAT_REFERENCE for a repeat with different parameters", async () => {
      const merchant = await buildMerchant();
      const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 250, externalReference: "order-2" };
      await createRequest(merchant.ctx, input);
      await expectCode(createRequest(merchant.ctx, { ...input, amount: 251 }), "REPEAT_REFERENCE");
      await expectCode(createRequest(merchant.ctx, { ...input, description: "changed" }), "REPEAT_REFERENCE");
    });

    it("creates exactly one request when the same reference races", async () => {
      const merchant = await buildMerchant();
      const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 99, externalReference: "race" };
      const results = await Promise.all(Array.from({ length: 10 }, () => createRequest(merchant.ctx, input)));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
    });

    it("is unique per merchant, not globally", async () => {
      const [a, b] = await Promise.all([buildMerchant(), buildMerchant()]);
      const ra = await createRequest(a.ctx, { merchantId: a.merchantId, asset: "NZD", amount: 1, externalReference: "shared" });
      const rb = await createRequest(b.ctx, { merchantId: b.merchantId, asset: "NZD", amount: 2, externalReference: "shared" });
      expect(ra.id).not.toBe(rb.id);
    });
  });
});
