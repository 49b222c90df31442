import { pool, prepared } from "../../db.js";
import { queryRows, statement } from "../../sql/statements.js";
import { configurationItems } from "../../sql/tables.js";
import type { PaymentMethod } from "../../generated/prisma/client.js";
import { ForbiddenError } from "../errors.js";

export interface NewPaymentOption {
  index: number;
  ledgerId: string;
  amount: bigint;
  account: string | null;
  methods: PaymentMethod[];
}

const OFFERED_ITEMS = statement(
  `SELECT i.ledger_id AS "ledgerId", i.account, i.methods::text[] AS methods
   FROM configuration_item i JOIN ledger l ON l.id = i.ledger_id
   WHERE i.merchant_id = $1 AND i.client_id IS NOT DISTINCT FROM $2 AND l.enabled AND i.currency = $3
   ORDER BY i.index`,
  configurationItems.pick("ledgerId", "account", "methods").columns,
);

/**
 * The options a new request offers: the merchant's configuration items (or, with a client, the
 * client's) that accept the requested asset (exactly: `nzd` is not `NZD`), on enabled ledgers, one
 * per ledger, in item order.
 * Plain SQL: this runs on every requests.create (see bench/).
 */
export async function paymentOptionsFor(merchantId: string, clientId: string | undefined, asset: string, amount: bigint) {
  if (clientId) {
    const { rowCount } = await pool.query(
      prepared("SELECT 1 FROM client WHERE id = $1 AND merchant_id = $2", [clientId, merchantId]),
    );
    if (!rowCount) {
      throw new ForbiddenError("MERCHANT_CONFIGURATION_NOT_FOUND", "The clientId is not a configuration of this merchant.");
    }
  }
  const items = await queryRows(pool, OFFERED_ITEMS, [merchantId, clientId ?? null, asset]);
  const ledgers = new Set<string>();
  const options: NewPaymentOption[] = items
    .filter((item) => !ledgers.has(item.ledgerId) && ledgers.add(item.ledgerId))
    .map((item, index) => ({ index, ledgerId: item.ledgerId, amount, account: item.account, methods: item.methods }));
  if (options.length === 0) {
    throw new ForbiddenError("NO_AVAILABLE_PAYMENT_OPTIONS", `No configuration item of this merchant can be paid in ${asset}.`);
  }
  return options;
}
