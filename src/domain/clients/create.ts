import { z } from "zod";
import { randomUUID } from "node:crypto";
import { database } from "../../db.js";
import { notFound, requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { id, optional, parseInput, text } from "../validation.js";

const createClientInput = z.object({ merchantId: id, name: optional(text(200)) });

/**
 * Creates a client configuration of a merchant. It starts as a copy of the merchant's own items,
 * which can then diverge: requests made with its clientId are offered the client's items only.
 */
export async function createClient(ctx: DomainContext, input: z.input<typeof createClientInput>) {
  requireOperator(ctx);
  const { merchantId, name } = parseInput(createClientInput, { merchantId: "INVALID_MERCHANT_ID" }, input);
  return database.transaction().execute(async (trx) => {
    const merchant = await trx.selectFrom("merchant").select("id").where("id", "=", merchantId).executeTakeFirst();
    if (!merchant) throw notFound("MERCHANT_NOT_FOUND");
    const clientId = randomUUID();
    await trx
      .insertInto("client")
      .values({ id: clientId, merchantId, name: name ?? null, createdAt: ctx.now() })
      .execute();
    const items = await trx
      .selectFrom("configurationItem")
      .selectAll()
      .where("merchantId", "=", merchantId)
      .where("clientId", "is", null)
      .execute();
    if (items.length > 0)
      await trx
        .insertInto("configurationItem")
        .values(items.map((item) => ({ ...item, id: randomUUID(), clientId })))
        .execute();
    return { clientId, merchantId };
  });
}
