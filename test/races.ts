/**
 * The money path's races, run through whatever carries the calls: the domain functions in this
 * process, or a service process over HTTP (test/topology). Each call's outcome is "OK" or the code
 * it was refused with, so one tally shows every way a race went.
 */
import { expect } from "vitest";
import { db } from "./prisma.js";
import { payRequest } from "../src/domain/requests/pay.js";
import { buildRequest, buildWallet, outboxFor, payer, walletBalance, type TestMerchant } from "./factories.js";

/** "OK", or the code the call was refused with. */
export type Outcome = string;

/** How many calls ended each way. */
export const tally = (outcomes: Outcome[]) =>
  outcomes.reduce<Record<string, number>>((counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }), {});

/**
 * 50 payers, each with a wallet of 5000, pay one request of 1000 at once: exactly one purchase, the
 * others refused REQUEST_PAID, one wallet charged, one notification written. Its notifyUrl is,
 * unless given, a loopback port where nothing listens: a worker on the file's database may try it,
 * and must never look a name up or leave the machine.
 */
export async function raceToPay(
  pay: (call: { requestId: string; walletId: string }) => Promise<Outcome>,
  { payers = 50, notifyUrl = "http://127.0.0.1:9/hook" } = {},
) {
  // The payers' wallets ten at a time: 50 transactions at once would wait on the test's few connections.
  const wallets: Awaited<ReturnType<typeof buildWallet>>[] = [];
  while (wallets.length < payers)
    wallets.push(...(await Promise.all(Array.from({ length: Math.min(10, payers - wallets.length) }, () => buildWallet(5000)))));
  const { merchant, request } = await buildRequest({ amount: 1000, notifyUrl });

  const outcomes = await Promise.all(wallets.map((wallet) => pay({ requestId: request.id, walletId: wallet.walletId })));

  expect(tally(outcomes)).toEqual({ OK: 1, REQUEST_PAID: payers - 1 });
  expect(await db.transaction.count({ where: { requestId: request.id, type: "PURCHASE" } })).toBe(1);
  const balances = await Promise.all(wallets.map((w) => walletBalance(w.walletId)));
  expect(balances.reduce((sum, b) => sum + b, 0n)).toBe(BigInt(payers) * 5000n - 1000n);
  const outbox = await outboxFor(request.id);
  expect(outbox).toHaveLength(1);
  return { merchant, request, event: outbox[0]! };
}

/**
 * A purchase of 1000 from a wallet, then 20 partial refunds of 150 at once, which together would
 * exceed it: six succeed, the others are refused INVALID_AMOUNT, and 900 goes back to the wallet.
 */
export async function raceToRefund(
  refund: (call: {
    merchant: TestMerchant;
    transactionId: string;
    amount: number;
    externalReference: string;
  }) => Promise<Outcome>,
) {
  const wallet = await buildWallet(1000);
  const { merchant, request } = await buildRequest({ amount: 1000 });
  const { purchase } = await payRequest(payer, {
    requestId: request.id,
    authorization: wallet.walletId,
    ledger: "sandbox.nzd.wallet",
  });

  const outcomes = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      refund({ merchant, transactionId: purchase!.id, amount: 150, externalReference: `race-${i}` }),
    ),
  );

  expect(tally(outcomes)).toEqual({ OK: 6, INVALID_AMOUNT: 14 });
  const refunds = await db.transaction.aggregate({ where: { purchaseId: purchase!.id }, _sum: { amount: true } });
  expect(refunds._sum.amount).toBe(900n);
  expect(await walletBalance(wallet.walletId)).toBe(900n);
}

/** A domain call's outcome: "OK", or the code of the DomainError it threw (anything else is rethrown). */
export const outcomeOf = (call: Promise<unknown>): Promise<Outcome> =>
  call.then(
    () => "OK",
    (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string") throw error;
      return code;
    },
  );
