import { randomUUID } from "node:crypto";
import { database } from "../../db.js";
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
  const now = ctx.now();
  return database.transaction().execute(async (trx) => {
    await ensureSandboxWalletLedger(trx, currency);
    const merchantId = randomUUID();
    await trx.insertInto("merchant").values({ id: merchantId, name, createdAt: now, updatedAt: now }).execute();
    await trx
      .insertInto("configurationItem")
      .values(defaultConfigurationItems(currency).map((item) => ({ ...item, id: randomUUID(), merchantId })))
      .execute();
    const { apiKey } = await createApiKey(ctx, { kind: "MERCHANT", merchantId, label: "initial" }, trx);
    return { merchantId, name, currency, apiKey };
  });
}
