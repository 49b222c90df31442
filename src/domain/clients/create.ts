import { z } from "zod";
import { db } from "../../db.js";
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
  return db.$transaction(async (tx) => {
    const merchant = await tx.merchant.findUnique({
      where: { id: merchantId },
      include: { items: { where: { clientId: null } } },
    });
    if (!merchant) throw notFound("MERCHANT_NOT_FOUND");
    const client = await tx.client.create({ data: { merchantId, name: name ?? null } });
    await tx.configurationItem.createMany({
      data: merchant.items.map(({ id: _id, clientId: _clientId, ...item }) => ({ ...item, clientId: client.id })),
    });
    return { clientId: client.id, merchantId };
  });
}
