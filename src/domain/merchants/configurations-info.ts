import { db } from "../../db.js";
import type { ConfigurationItem, Merchant } from "../../generated/prisma/client.js";
import { requireOwnMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError } from "../errors.js";
import { parseInput } from "../validation.js";
import { configurationInfoCodes, configurationInfoInput, type ConfigurationInfoInput } from "./schemas.js";

export interface MerchantConfiguration {
  merchant: Merchant;
  clientId: string | null;
  items: ConfigurationItem[];
}

/** The configuration items of the calling merchant, or of one of its clients. */
export async function getMerchantConfiguration(
  ctx: DomainContext,
  input: ConfigurationInfoInput,
): Promise<MerchantConfiguration> {
  const params = parseInput(configurationInfoInput, configurationInfoCodes, input);
  requireOwnMerchant(ctx, params.merchantId);
  const clientId = params.clientId ?? null;
  const [merchant, client, items] = await Promise.all([
    db.merchant.findUniqueOrThrow({ where: { id: params.merchantId } }),
    clientId ? db.client.findFirst({ where: { id: clientId, merchantId: params.merchantId } }) : null,
    db.configurationItem.findMany({ where: { merchantId: params.merchantId, clientId }, orderBy: { index: "asc" } }),
  ]);
  if (clientId && !client) {
    throw new ForbiddenError("MERCHANT_CONFIGURATION_NOT_FOUND", "The clientId is not a configuration of this merchant.");
  }
  return { merchant, clientId, items };
}
