import { z } from "zod";
import { db } from "../../db.js";
import { requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ensureSandboxWalletLedger } from "../ledgers/sandbox.js";
import { currency } from "../merchants/schemas.js";
import { MAX_AMOUNT, parseInput } from "../validation.js";

const createWalletInput = z.object({
  currency,
  balance: z
    .union([z.number().int(), z.string().trim().regex(/^\d+$/)])
    .transform((value) => BigInt(value))
    .refine((value) => value >= 0n && value <= MAX_AMOUNT, "must be from 0 to 2^53-1 minimum units"),
});

/** Creates a sandbox wallet (and its currency's sandbox ledger) holding `balance` minimum units. */
export async function createWallet(ctx: DomainContext, input: z.input<typeof createWalletInput>) {
  requireOperator(ctx);
  const params = parseInput(createWalletInput, { currency: "INVALID_ASSET", balance: "INVALID_AMOUNT" }, input);
  return db.$transaction(async (tx) => {
    const ledger = await ensureSandboxWalletLedger(tx, params.currency);
    const wallet = await tx.sandboxWallet.create({ data: { currency: params.currency, balance: params.balance } });
    return { walletId: wallet.id, currency: wallet.currency, balance: Number(wallet.balance), ledger: ledger.id };
  });
}
