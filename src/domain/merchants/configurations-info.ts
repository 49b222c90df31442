import type { Selectable } from "kysely";
import { database } from "../../db.js";
import type { ConfigurationItem, Merchant } from "../../generated/kysely/database.js";
import { requireOwnMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError } from "../errors.js";
import { parseInput } from "../validation.js";
import { configurationInfoCodes, configurationInfoInput, type ConfigurationInfoInput } from "./schemas.js";

export interface MerchantConfiguration {
  merchant: Selectable<Merchant>;
  clientId: string | null;
  items: Selectable<ConfigurationItem>[];
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
    database.selectFrom("merchant").selectAll().where("id", "=", params.merchantId).executeTakeFirstOrThrow(),
    clientId
      ? database
          .selectFrom("client")
          .select("id")
          .where("id", "=", clientId)
          .where("merchantId", "=", params.merchantId)
          .executeTakeFirst()
      : null,
    database
      .selectFrom("configurationItem")
      .selectAll()
      .where("merchantId", "=", params.merchantId)
      .where((eb) => (clientId ? eb("clientId", "=", clientId) : eb("clientId", "is", null)))
      .orderBy("index")
      .execute(),
  ]);
  if (clientId && !client) {
    throw new ForbiddenError("MERCHANT_CONFIGURATION_NOT_FOUND", "The clientId is not a configuration of this merchant.");
  }
  return { merchant, clientId, items };
}
