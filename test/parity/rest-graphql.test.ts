import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { gql, rest } from "../fixtures.js";
import { buildMerchant, buildWallet, type TestMerchant } from "../factories.js";
import {
  CancelRequest as Cancel,
  CreateRequest as Create,
  PayRequest as Pay,
  RefundTransaction as Refund,
} from "../operations/requests.js";

/** One scenario, written against an abstract transport, so both run the very same steps. */
interface Transport {
  create(input: Record<string, string | number>): Promise<string>;
  pay(requestId: string, ledger: string, authorization: string): Promise<string>;
  cancel(requestId: string): Promise<unknown>;
  refund(transactionId: string, amount: number, externalReference?: string): Promise<unknown>;
}

function viaRest(m: TestMerchant): Transport {
  return {
    create: async (input) =>
      (await rest("requests.create", { apiKey: m.apiKey, json: { merchantId: m.merchantId, ...input } })).body.requestId,
    pay: async (requestId, ledger, authorization) =>
      (await rest("requests.pay", { apiKey: m.apiKey, form: { requestId, ledger, paymentAuthorization: authorization } })).body
        .paidBy.transactionId,
    cancel: (requestId) => rest("requests.cancel", { apiKey: m.apiKey, form: { requestId } }),
    refund: (transactionId, amount, externalReference) =>
      rest("transactions.refund", {
        apiKey: m.apiKey,
        json: { transactionId, amount, ...(externalReference ? { externalReference } : {}) },
      }),
  };
}

function viaGraphQL(m: TestMerchant): Transport {
  return {
    create: async (input) => {
      const result = (await gql(Create, { input: { merchantId: m.merchantId, asset: "NZD", amount: 0, ...input } }, m.apiKey))
        .data!.requestCreate;
      return (result as { id: string }).id;
    },
    pay: async (requestId, ledger, authorization) => {
      const result = (await gql(Pay, { input: { requestId, ledger, authorization } }, m.apiKey)).data!.requestPay;
      return (result as { paidBy: { id: string } }).paidBy.id;
    },
    cancel: (requestId) => gql(Cancel, { input: { requestId } }, m.apiKey),
    refund: (transactionId, amount, externalReference) =>
      gql(Refund, { input: { transactionId, amount, externalReference } }, m.apiKey),
  };
}

async function scenario(transport: Transport, walletId: string) {
  const paid = await transport.create({
    asset: "NZD",
    amount: 1500,
    externalReference: "order-1",
    description: "Two pies",
    notifyUrl: "http://127.0.0.1:9/h",
    paymentExpirySeconds: 300,
  });
  const purchase = await transport.pay(paid, "sandbox.nzd.wallet", walletId);
  await transport.refund(purchase, 500, "rf-1");
  await transport.refund(purchase, 500, "rf-1");
  await transport.refund(purchase, 2000, "rf-2");
  const cancelled = await transport.create({ asset: "NZD", amount: 20 });
  await transport.cancel(cancelled);
  await transport.cancel(cancelled);
}

/** The merchant's rows without ids, keys and clocks. */
async function stateOf(merchantId: string) {
  const requests = await db.paymentRequest.findMany({
    where: { merchantId },
    orderBy: { amount: "desc" },
    include: {
      options: { orderBy: { index: "asc" } },
      transactions: { orderBy: { createdAt: "asc" } },
      deliveries: { orderBy: { createdAt: "asc" } },
    },
  });
  return requests.map((r) => ({
    status: r.status,
    amount: r.amount,
    asset: r.asset,
    externalReference: r.externalReference,
    description: r.description,
    notifyUrl: r.notifyUrl,
    paymentExpirySeconds: r.paymentExpirySeconds,
    options: r.options.map((o) => [o.ledgerId, o.amount, o.methods]),
    transactions: r.transactions.map((t) => [t.type, t.amount, t.ledgerId, t.externalReference, t.paymentType]),
    notifications: r.deliveries.map((e) => {
      const { transactionType, amount, ledger, state } = e.payload as Record<string, unknown>;
      return { url: e.url, state: e.state, transactionType, amount, ledger, txState: state };
    }),
  }));
}

describe("REST and GraphQL parity", () => {
  it("the same scenario leaves the same database state through either transport", async () => {
    const [restMerchant, graphqlMerchant] = await Promise.all([buildMerchant(), buildMerchant()]);
    const [restWallet, graphqlWallet] = await Promise.all([buildWallet(10_000), buildWallet(10_000)]);

    await scenario(viaRest(restMerchant), restWallet.walletId);
    await scenario(viaGraphQL(graphqlMerchant), graphqlWallet.walletId);

    const restState = await stateOf(restMerchant.merchantId);
    expect(restState).toHaveLength(2);
    expect(restState[0]!.transactions).toHaveLength(2);
    expect(await stateOf(graphqlMerchant.merchantId)).toEqual(restState);
    const balances = await db.sandboxWallet.findMany({ where: { id: { in: [restWallet.walletId, graphqlWallet.walletId] } } });
    expect(balances.map((w) => w.balance)).toEqual([9000n, 9000n]);
  });
});
