import { prepared, toUtcText } from "../../../db.js";
import { boolean, nullable } from "../../../sql/columns.js";
import { queryRow, statement } from "../../../sql/statements.js";
import { sandboxWallets } from "../../../sql/tables.js";
import { id } from "../../validation.js";
import { LedgerRefusedError } from "../../errors.js";
import { sandboxApproval } from "../approval-code.js";
import type { LedgerConnector } from "../connector.js";

const DEBIT = statement(
  `WITH debit AS (
     UPDATE sandbox_wallet SET balance = balance - $2, updated_at = $4
     WHERE id = $1 AND ($3::text IS NULL OR currency = $3) AND balance >= $2 RETURNING id)
   SELECT EXISTS (SELECT 1 FROM debit) AS debited, (SELECT currency FROM sandbox_wallet WHERE id = $1) AS currency`,
  { debited: boolean(), currency: nullable(sandboxWallets.columns.currency) },
);

/**
 * `sandbox.<currency>.wallet`: the authorization is a sandbox wallet id. Paying debits the wallet
 * in the caller's transaction with a conditional update, so concurrent debits never overdraw it;
 * a refund credits the paying wallet back.
 */
export const sandboxWallet: LedgerConnector = {
  async authorize(sql, { ledger, authorization, amount, now }) {
    const inactive = new LedgerRefusedError("INACTIVE_ASSET", "No active sandbox wallet has that id for this ledger.");
    // An id of any other format names no wallet (see validation.ts `id`).
    const parsed = id.safeParse(authorization);
    if (!parsed.success) throw inactive;
    const walletId = parsed.data;
    // The debit and the reason it failed, in one statement: the wallet row as it was is read beside
    // it. A ledger without a currency takes a wallet of any.
    const { debited, currency } = (await queryRow(sql, DEBIT, [walletId, amount.toString(), ledger.currency, toUtcText(now)]))!;
    if (!debited) {
      if (currency === null || (ledger.currency !== null && currency !== ledger.currency)) throw inactive;
      throw new LedgerRefusedError("INSUFFICIENT_ASSET_BALANCE", "The wallet's balance is too low for this payment.");
    }
    return sandboxApproval("sandbox-wallet", now, walletId);
  },
  async refund(sql, { purchase, amount, now }) {
    const walletId = purchase.payerReference;
    if (!walletId) throw new LedgerRefusedError("INACTIVE_ASSET", "The purchase has no wallet to return money to.");
    const credited = await sql.query(
      prepared("UPDATE sandbox_wallet SET balance = balance + $2, updated_at = $3 WHERE id = $1", [
        walletId,
        amount.toString(),
        toUtcText(now),
      ]),
    );
    // Money is returned to the wallet that paid or not at all (the caller's transaction then changes nothing).
    if (credited.rowCount !== 1)
      throw new LedgerRefusedError("INACTIVE_ASSET", "The wallet the purchase was paid from no longer exists.");
    return sandboxApproval("sandbox-wallet", now, walletId);
  },
};
