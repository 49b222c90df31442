import { z } from "zod";
import { randomUUID } from "node:crypto";
import { database } from "../../db.js";
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
  const now = ctx.now();
  return database.transaction().execute(async (trx) => {
    const ledger = await ensureSandboxWalletLedger(trx, params.currency);
    const walletId = randomUUID();
    await trx
      .insertInto("sandboxWallet")
      .values({ id: walletId, currency: params.currency, balance: params.balance, createdAt: now, updatedAt: now })
      .execute();
    return { walletId, currency: params.currency, balance: Number(params.balance), ledger };
  });
}
