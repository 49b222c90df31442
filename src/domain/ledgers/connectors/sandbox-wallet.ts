import { compiled } from "../../../sql/compiled.js";
import { id } from "../../validation.js";
import { LedgerRefusedError } from "../../errors.js";
import { sandboxApproval } from "../approval-code.js";
import type { LedgerConnector } from "../connector.js";

type Debit = { walletId: string; amount: bigint; currency: string | null; at: Date };
/** The debit, and the wallet's currency as it was (null: no such wallet), read beside it: why it failed, when it did. */
const DEBIT = compiled<Debit, { debited: boolean; currency: string | null }>((qb, param) =>
  qb
    .with("debit", () =>
      qb
        .updateTable("sandboxWallet")
        .set((eb) => ({ balance: eb("balance", "-", param("amount")), updatedAt: param("at") }))
        .where("id", "=", param("walletId"))
        .where((eb) =>
          eb.or([eb(eb.cast(eb.val(param("currency")), "text"), "is", null), eb("currency", "=", eb.val(param("currency")))]),
        )
        .where("balance", ">=", param("amount"))
        .returning("id"),
    )
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom("debit").select("id")).as("debited"),
      eb.selectFrom("sandboxWallet").select("currency").where("id", "=", param("walletId")).as("currency"),
    ]),
);
const CREDIT = compiled<{ walletId: string; amount: bigint; at: Date }, { id: string }>((qb, param) =>
  qb
    .updateTable("sandboxWallet")
    .set((eb) => ({ balance: eb("balance", "+", param("amount")), updatedAt: param("at") }))
    .where("id", "=", param("walletId"))
    .returning("id"),
);

/**
 * `sandbox.<currency>.wallet`: the authorization is a sandbox wallet id. Paying debits the wallet
 * in the caller's transaction with a conditional update, so concurrent debits never overdraw it;
 * a refund credits the paying wallet back.
 */
export const sandboxWallet: LedgerConnector = {
  async authorize(trx, { ledger, authorization, amount, now }) {
    const inactive = new LedgerRefusedError("INACTIVE_ASSET", "No active sandbox wallet has that id for this ledger.");
    // An id of any other format names no wallet (see validation.ts `id`).
    const parsed = id.safeParse(authorization);
    if (!parsed.success) throw inactive;
    const walletId = parsed.data;
    // The debit and the reason it failed, in one statement: the wallet row as it was is read beside
    // it. A ledger without a currency takes a wallet of any.
    const [{ debited, currency }] = (await DEBIT(trx, { walletId, amount, currency: ledger.currency, at: now })) as [
      { debited: boolean; currency: string | null },
    ];
    if (!debited) {
      if (currency === null || (ledger.currency !== null && currency !== ledger.currency)) throw inactive;
      throw new LedgerRefusedError("INSUFFICIENT_ASSET_BALANCE", "The wallet's balance is too low for this payment.");
    }
    return sandboxApproval("sandbox-wallet", now, walletId);
  },
  async refund(trx, { purchase, amount, now }) {
    const walletId = purchase.payerReference;
    if (!walletId) throw new LedgerRefusedError("INACTIVE_ASSET", "The purchase has no wallet to return money to.");
    const credited = await CREDIT(trx, { walletId, amount, at: now });
    // Money is returned to the wallet that paid or not at all (the caller's transaction then changes nothing).
    if (credited.length !== 1)
      throw new LedgerRefusedError("INACTIVE_ASSET", "The wallet the purchase was paid from no longer exists.");
    return sandboxApproval("sandbox-wallet", now, walletId);
  },
};
