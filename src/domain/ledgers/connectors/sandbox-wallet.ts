import { id } from "../../validation.js";
import { LedgerRefusedError } from "../../errors.js";
import { sandboxApproval } from "../approval-code.js";
import type { LedgerConnector } from "../connector.js";

/**
 * `sandbox.<currency>.wallet`: the authorization is a sandbox wallet id. Paying debits the wallet
 * in the caller's transaction with a conditional update, so concurrent debits never overdraw it;
 * a refund credits the paying wallet back.
 */
export const sandboxWallet: LedgerConnector = {
  async authorize(tx, { ledger, authorization, amount, now }) {
    const inactive = new LedgerRefusedError("INACTIVE_ASSET", "No active sandbox wallet has that id for this ledger.");
    // An id of any other format names no wallet (see validation.ts `id`).
    const parsed = id.safeParse(authorization);
    if (!parsed.success) throw inactive;
    const walletId = parsed.data;
    const debited = await tx.sandboxWallet.updateMany({
      where: { id: walletId, currency: ledger.currency ?? undefined, balance: { gte: amount } },
      data: { balance: { decrement: amount } },
    });
    if (debited.count === 0) {
      const wallet = await tx.sandboxWallet.findUnique({ where: { id: walletId } });
      if (!wallet || wallet.currency !== ledger.currency) throw inactive;
      throw new LedgerRefusedError("INSUFFICIENT_ASSET_BALANCE", "The wallet's balance is too low for this payment.");
    }
    return sandboxApproval("sandbox-wallet", now, walletId);
  },
  async refund(tx, { purchase, amount, now }) {
    const walletId = purchase.payerReference;
    if (!walletId) throw new LedgerRefusedError("INACTIVE_ASSET", "The purchase has no wallet to return money to.");
    await tx.sandboxWallet.update({ where: { id: walletId }, data: { balance: { increment: amount } } });
    return sandboxApproval("sandbox-wallet", now, walletId);
  },
};
