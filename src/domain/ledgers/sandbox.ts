import type { Tx } from "../../db.js";
import type { Ledger } from "../../generated/prisma/client.js";

export const TEST_UPLINK = "test.uplink";

/** The id of the sandbox wallet ledger for a currency, e.g. `sandbox.nzd.wallet`. */
export function sandboxWalletLedgerId(currency: string): string {
  return `sandbox.${currency.toLowerCase()}.wallet`;
}

/**
 * The sandbox wallet ledger for a currency, created on first use. ON CONFLICT makes concurrent
 * first uses safe, which Prisma's upsert (a read, then a write) is not.
 */
export async function ensureSandboxWalletLedger(tx: Tx, currency: string): Promise<Ledger> {
  const id = sandboxWalletLedgerId(currency);
  await tx.$executeRaw`INSERT INTO ledger (id, currency, connector) VALUES (${id}, ${currency}, 'SANDBOX_WALLET') ON CONFLICT (id) DO NOTHING`;
  return tx.ledger.findUniqueOrThrow({ where: { id } });
}
