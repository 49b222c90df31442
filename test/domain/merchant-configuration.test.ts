import { describe, expect, it } from "vitest";
import { createClient } from "../../src/domain/clients/create.js";
import { getMerchantConfiguration } from "../../src/domain/merchants/configurations-info.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, operator, payer } from "../factories.js";

describe("merchants.configurations.info", () => {
  it("lists the merchant's default sandbox configuration", async () => {
    const merchant = await buildMerchant("JPY");
    const configuration = await getMerchantConfiguration(merchant.ctx, { merchantId: merchant.merchantId });
    expect(configuration.clientId).toBeNull();
    expect(configuration.merchant.name).toMatch(/^Shop /);
    expect(configuration.items.map((i) => [i.index, i.ledgerId, i.unitsFactor, i.fractionalDigits])).toEqual([
      [0, "test.uplink", 1, 0],
      [1, "sandbox.jpy.wallet", 1, 0],
    ]);
    expect(configuration.items[0]!.methods).toEqual(["QR_CODE", "NFC", "AUTH_ALPHANUMERIC", "AUTH_NUMERIC"]);
  });

  it("lists a client's items with its clientId", async () => {
    const merchant = await buildMerchant();
    const { clientId } = await createClient(operator, { merchantId: merchant.merchantId });
    const configuration = await getMerchantConfiguration(merchant.ctx, { merchantId: merchant.merchantId, clientId });
    expect(configuration.clientId).toBe(clientId);
    expect(configuration.items.every((i) => i.clientId === clientId)).toBe(true);
    expect(configuration.items).toHaveLength(2);
  });

  it("answers with the contract's codes for bad or foreign parameters", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const { clientId: foreignClient } = await createClient(operator, { merchantId: other.merchantId });
    // An id of any format that names nothing is not found; only an over-long one is malformed.
    await expectCode(getMerchantConfiguration(merchant.ctx, { merchantId: "m1" }), "MERCHANT_NOT_FOUND");
    await expectCode(getMerchantConfiguration(merchant.ctx, { merchantId: "x".repeat(129) }), "INVALID_MERCHANT_ID");
    await expectCode(getMerchantConfiguration(merchant.ctx, { merchantId: other.merchantId }), "MERCHANT_NOT_FOUND");
    await expectCode(
      getMerchantConfiguration(merchant.ctx, { merchantId: merchant.merchantId, clientId: "c1" }),
      "MERCHANT_CONFIGURATION_NOT_FOUND",
    );
    await expectCode(
      getMerchantConfiguration(merchant.ctx, { merchantId: merchant.merchantId, clientId: "x".repeat(129) }),
      "INVALID_CLIENT_ID",
    );
    await expectCode(
      getMerchantConfiguration(merchant.ctx, { merchantId: merchant.merchantId, clientId: foreignClient }),
      "MERCHANT_CONFIGURATION_NOT_FOUND",
    );
    await expectCode(getMerchantConfiguration(payer, { merchantId: merchant.merchantId }), "FORBIDDEN");
  });
});

describe("merchant create", () => {
  it("creates merchants of a new currency concurrently, sharing one sandbox ledger", async () => {
    const { createMerchant } = await import("../../src/domain/merchants/create.js");
    const { db } = await import("../prisma.js");
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) => createMerchant(operator, { name: `CHF shop ${i}`, currency: "chf" })),
    );
    expect(new Set(created.map((m) => m.merchantId)).size).toBe(5);
    expect(await db.ledger.findUniqueOrThrow({ where: { id: "sandbox.chf.wallet" } })).toMatchObject({
      currency: "CHF",
      connector: "SANDBOX_WALLET",
    });
  });
});
