import { sql } from "kysely";
import { database } from "../../db.js";
import { compiled } from "../../sql/compiled.js";
import type { Row } from "../../sql/rows.js";
import type { PaymentMethod } from "../../generated/prisma/client.js";
import { ForbiddenError } from "../errors.js";

export interface NewPaymentOption {
  index: number;
  ledgerId: string;
  amount: bigint;
  account: string | null;
  methods: PaymentMethod[];
}

const CLIENT_OF_MERCHANT = compiled<{ clientId: string; merchantId: string }, { one: number }>((qb, param) =>
  qb
    .selectFrom("client")
    .select(sql<number>`1`.as("one"))
    .where("id", "=", param("clientId"))
    .where("merchantId", "=", param("merchantId")),
);

const OFFERED_ITEMS = compiled<
  { merchantId: string; clientId: string | null; asset: string },
  Pick<Row<"configurationItem">, "ledgerId" | "account" | "methods">
>((qb, param) =>
  qb
    .selectFrom("configurationItem as i")
    .innerJoin("ledger as l", "l.id", "i.ledgerId")
    .select(["i.ledgerId", "i.account", "i.methods"])
    .where("i.merchantId", "=", param("merchantId"))
    .where("i.clientId", "is not distinct from", param("clientId"))
    .where((eb) => eb.ref("l.enabled"))
    .where("i.currency", "=", param("asset"))
    .orderBy("i.index"),
);

/**
 * The options a new request offers: the merchant's configuration items (or, with a client, the
 * client's) that accept the requested asset (exactly: `nzd` is not `NZD`), on enabled ledgers, one
 * per ledger, in item order.
 * Compiled once (src/sql/compiled.ts): this runs on every requests.create (see bench/).
 */
export async function paymentOptionsFor(merchantId: string, clientId: string | undefined, asset: string, amount: bigint) {
  if (clientId) {
    const [client] = await CLIENT_OF_MERCHANT(database, { clientId, merchantId });
    if (!client) {
      throw new ForbiddenError("MERCHANT_CONFIGURATION_NOT_FOUND", "The clientId is not a configuration of this merchant.");
    }
  }
  const items = await OFFERED_ITEMS(database, { merchantId, clientId: clientId ?? null, asset });
  const ledgers = new Set<string>();
  const options: NewPaymentOption[] = items
    .filter((item) => !ledgers.has(item.ledgerId) && ledgers.add(item.ledgerId))
    .map((item, index) => ({ index, ledgerId: item.ledgerId, amount, account: item.account, methods: item.methods }));
  if (options.length === 0) {
    throw new ForbiddenError("NO_AVAILABLE_PAYMENT_OPTIONS", `No configuration item of this merchant can be paid in ${asset}.`);
  }
  return options;
}
