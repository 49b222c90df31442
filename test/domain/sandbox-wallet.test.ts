import { describe, expect, it } from "vitest";
import { database } from "../../src/db.js";
import { db } from "../prisma.js";
import { sandboxWallet } from "../../src/domain/ledgers/connectors/sandbox-wallet.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { getTransaction } from "../../src/domain/transactions/info.js";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { expectCode } from "../expect-error.js";
import { buildRequest, buildWallet, payer, walletBalance } from "../factories.js";

describe("the sandbox wallet ledger", () => {
  it("refuses a refund with INACTIVE_ASSET, changing nothing, when the wallet that paid no longer exists", async () => {
    const wallet = await buildWallet(1000);
    const { merchant, request } = await buildRequest({ amount: 600 });
    const paid = await payRequest(payer, { requestId: request.id, authorization: wallet.walletId, ledger: "sandbox.nzd.wallet" });
    await db.sandboxWallet.delete({ where: { id: wallet.walletId } });

    await expectCode(refundTransaction(merchant.ctx, { transactionId: paid.purchase!.id, amount: 600 }), "INACTIVE_ASSET");
    expect(await db.transaction.count({ where: { purchaseId: paid.purchase!.id } })).toBe(0);
    expect((await getTransaction(merchant.ctx, { transactionId: paid.purchase!.id })).state).toBe("COMPLETED");
  });

  it("debits a wallet of any currency on a ledger without one, and only by what is asked", async () => {
    const [nzd, aud] = await Promise.all([buildWallet(500), buildWallet(500, "AUD")]);
    const ledger = { id: "sandbox.any.wallet", currency: null, connector: "SANDBOX_WALLET" as const };
    const authorize = (walletId: string, amount: bigint) =>
      database
        .transaction()
        .execute((trx) =>
          sandboxWallet.authorize(trx, { ledger, authorization: walletId, amount, asset: "NZD", now: new Date() }),
        );
    await authorize(nzd.walletId, 200n);
    await authorize(aud.walletId, 300n);
    expect([await walletBalance(nzd.walletId), await walletBalance(aud.walletId)]).toEqual([300n, 200n]);
    await expectCode(authorize(aud.walletId, 201n), "INSUFFICIENT_ASSET_BALANCE");
    await expectCode(authorize("8f1d0c8e-0000-4000-8000-000000000000", 1n), "INACTIVE_ASSET");
    expect(await walletBalance(aud.walletId)).toBe(200n);
  });
});
