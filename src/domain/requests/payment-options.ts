import { db } from "../../db.js";
import { ForbiddenError } from "../errors.js";

/**
 * The options a new request offers: the merchant's configuration items (or, with a client, the
 * client's) on enabled ledgers that settle in the requested asset, one per ledger, in item order.
 */
export async function paymentOptionsFor(merchantId: string, clientId: string | undefined, asset: string, amount: bigint) {
  if (clientId) {
    const client = await db.client.findFirst({ where: { id: clientId, merchantId }, select: { id: true } });
    if (!client) {
      throw new ForbiddenError("MERCHANT_CONFIGURATION_NOT_FOUND", "The clientId is not a configuration of this merchant.");
    }
  }
  const items = await db.configurationItem.findMany({
    where: {
      merchantId,
      clientId: clientId ?? null,
      ledger: { enabled: true, OR: [{ currency: asset }, { currency: null }] },
    },
    orderBy: { index: "asc" },
  });
  const ledgers = new Set<string>();
  const options = items
    .filter((item) => !ledgers.has(item.ledgerId) && ledgers.add(item.ledgerId))
    .map((item, index) => ({ index, ledgerId: item.ledgerId, amount, account: item.account, methods: item.methods }));
  if (options.length === 0) {
    throw new ForbiddenError("NO_AVAILABLE_PAYMENT_OPTIONS", `No configuration item of this merchant can be paid in ${asset}.`);
  }
  return options;
}
