import type { Tx } from "../../db.js";
import type { Ledger } from "../../generated/prisma/client.js";

export const TEST_UPLINK = "test.uplink";

/** The id of the sandbox wallet ledger for a currency, e.g. `sandbox.nzd.wallet`. */
export function sandboxWalletLedgerId(currency: string): string {
  return `sandbox.${currency.toLowerCase()}.wallet`;
}

/** The sandbox wallet ledger for a currency, created on first use. */
export async function ensureSandboxWalletLedger(tx: Tx, currency: string): Promise<Ledger> {
  const id = sandboxWalletLedgerId(currency);
  return tx.ledger.upsert({ where: { id }, update: {}, create: { id, currency, connector: "SANDBOX_WALLET" } });
}
