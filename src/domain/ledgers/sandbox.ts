import type { QueryBuilder } from "../../sql/query-builder.js";

export const TEST_UPLINK = "test.uplink";

/** The id of the sandbox wallet ledger for a currency, e.g. `sandbox.nzd.wallet`. */
export function sandboxWalletLedgerId(currency: string): string {
  return `sandbox.${currency.toLowerCase()}.wallet`;
}

/**
 * The id of the sandbox wallet ledger for a currency, which is created on first use. ON CONFLICT
 * makes concurrent first uses safe, which a read, then a write, would not be.
 */
export async function ensureSandboxWalletLedger(qb: QueryBuilder, currency: string): Promise<string> {
  const id = sandboxWalletLedgerId(currency);
  await qb
    .insertInto("ledger")
    .values({ id, currency, connector: "SANDBOX_WALLET" })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
  return id;
}
