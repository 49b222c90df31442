import { db } from "../../db.js";
import { requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { createApiKey } from "../keys/create.js";
import { ensureSandboxWalletLedger } from "../ledgers/sandbox.js";
import { parseInput } from "../validation.js";
import { defaultConfigurationItems } from "./default-configuration.js";
import { createMerchantCodes, createMerchantInput, type CreateMerchantInput } from "./schemas.js";

/** Creates a merchant with the default sandbox configuration for its currency and a merchant key. */
export async function createMerchant(ctx: DomainContext, input: CreateMerchantInput) {
  requireOperator(ctx);
  const { name, currency } = parseInput(createMerchantInput, createMerchantCodes, input);
  return db.$transaction(async (tx) => {
    await ensureSandboxWalletLedger(tx, currency);
    const merchant = await tx.merchant.create({ data: { name } });
    await tx.configurationItem.createMany({
      data: defaultConfigurationItems(currency).map((item) => ({ ...item, merchantId: merchant.id })),
    });
    const { apiKey } = await createApiKey(ctx, { kind: "MERCHANT", merchantId: merchant.id, label: "initial" }, tx);
    return { merchantId: merchant.id, name: merchant.name, currency, apiKey };
  });
}
