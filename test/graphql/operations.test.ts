import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { revokeApiKey } from "../../src/domain/keys/revoke.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { app, gql } from "../fixtures.js";
import { buildMerchant, buildPayerKey, buildWallet, operator, walletBalance } from "../factories.js";
import { graphql } from "../gql/index.js";
import { CancelRequest, CreateRequest, PayRequest, RefundTransaction } from "../operations/requests.js";

const RequestInfo = graphql(`
  query RequestInfo($id: ID, $requestCode: String) {
    paymentRequest(id: $id, requestCode: $requestCode) {
      id
      status
      requestCode
      paidBy {
        id
      }
      refunds {
        id
        amount
      }
    }
  }
`);

/** What a wallet (a payer key) reads of a request it scanned. */
const WalletRequestInfo = graphql(`
  query WalletRequestInfo($id: ID, $requestCode: String) {
    paymentRequest(id: $id, requestCode: $requestCode) {
      id
      status
      requestCode
      paidBy {
        id
      }
    }
  }
`);

const TransactionInfo = graphql(`
  query TransactionInfo($id: ID!) {
    transaction(id: $id) {
      id
      transactionType
      amount
      refundableAmount
      refunds {
        id
        amount
      }
      request {
        id
        status
      }
    }
  }
`);

const MerchantConfiguration = graphql(`
  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {
    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {
      merchantId
      name
      clientId
      items {
        label
        asset
        account
        index
        methods
        icon {
          image
          mimeType
        }
        units {
          label
          factor
        }
        fractionalDigits
        precision
      }
    }
  }
`);

describe("GraphQL payment flow", () => {
  it("creates, reads by code, pays from a sandbox wallet and refunds", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const wallet = await buildWallet(5000);

    const created = await gql(
      CreateRequest,
      { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 1250 } },
      merchant.apiKey,
    );
    const request = created.data!.requestCreate;
    if (request.__typename !== "PaymentRequest") throw new Error(`create failed: ${JSON.stringify(request)}`);
    expect(request).toMatchObject({ status: "NEW", denomination: { amount: 1250, asset: "NZD" }, paidBy: null });
    expect(request.payments.map((p) => p.ledger)).toEqual(["test.uplink", "sandbox.nzd.wallet"]);
    expect(request.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const scanned = await gql(WalletRequestInfo, { requestCode: request.requestCode }, payerKey);
    expect(scanned.data?.paymentRequest.id).toBe(request.id);

    const paid = await gql(
      PayRequest,
      { input: { requestId: request.id, authorization: wallet.walletId, ledger: "sandbox.nzd.wallet" } },
      payerKey,
    );
    const paidRequest = paid.data!.requestPay;
    if (paidRequest.__typename !== "PaymentRequest") throw new Error(`pay failed: ${JSON.stringify(paidRequest)}`);
    expect(paidRequest.status).toBe("PAID");
    expect(paidRequest.paidBy).toMatchObject({ amount: 1250, ledger: "sandbox.nzd.wallet" });
    const asMerchant = await gql(TransactionInfo, { id: paidRequest.paidBy!.id }, merchant.apiKey);
    expect(asMerchant.data!.transaction).toMatchObject({ transactionType: "PURCHASE", amount: 1250 });
    expect(await walletBalance(wallet.walletId)).toBe(3750n);

    const purchaseId = paidRequest.paidBy!.id;
    const refunded = await gql(
      RefundTransaction,
      { input: { transactionId: purchaseId, amount: "250", externalReference: "rf-1" } },
      merchant.apiKey,
    );
    expect(refunded.data!.transactionRefund).toMatchObject({
      __typename: "Transaction",
      transactionType: "REFUND",
      amount: 250,
      externalReference: "rf-1",
      purchase: { id: purchaseId, refundableAmount: 1000 },
    });
    expect(await walletBalance(wallet.walletId)).toBe(4000n);

    const purchase = await gql(TransactionInfo, { id: purchaseId }, merchant.apiKey);
    expect(purchase.data!.transaction).toMatchObject({
      refundableAmount: 1000,
      refunds: [{ amount: 250 }],
      request: { status: "PAID" },
    });
    const info = await gql(RequestInfo, { id: request.id }, merchant.apiKey);
    expect(info.data!.paymentRequest).toMatchObject({ status: "PAID", paidBy: { id: purchaseId }, refunds: [{ amount: 250 }] });
  });

  it("pays on test.uplink and cancels", async () => {
    const merchant = await buildMerchant();
    const create = () =>
      gql(CreateRequest, { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 10 } }, merchant.apiKey);
    const first = (await create()).data!.requestCreate as { id: string };
    const paid = await gql(
      PayRequest,
      { input: { requestId: first.id, authorization: "1234", ledger: "test.uplink" } },
      merchant.apiKey,
    );
    expect(paid.data!.requestPay).toMatchObject({ status: "PAID", paidBy: { ledger: "test.uplink" } });

    const second = (await create()).data!.requestCreate as { id: string };
    const cancelled = await gql(CancelRequest, { input: { requestId: second.id } }, merchant.apiKey);
    expect(cancelled.data!.requestCancel).toMatchObject({ __typename: "PaymentRequest", status: "CANCELLED", paidBy: null });
  });
});

describe("GraphQL errors", () => {
  it("returns domain failures of mutations as typed errors with the contract's CODE", async () => {
    const merchant = await buildMerchant();
    const bad = await gql(
      CreateRequest,
      { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 0 } },
      merchant.apiKey,
    );
    expect(bad.data!.requestCreate).toMatchObject({ __typename: "ValidationError", code: "INVALID_AMOUNT" });

    const created = (
      await gql(CreateRequest, { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 5 } }, merchant.apiKey)
    ).data!.requestCreate as { id: string };
    await gql(PayRequest, { input: { requestId: created.id, authorization: "a", ledger: "test.uplink" } }, merchant.apiKey);
    const twice = await gql(
      PayRequest,
      { input: { requestId: created.id, authorization: "a", ledger: "test.uplink" } },
      merchant.apiKey,
    );
    expect(twice.data!.requestPay).toMatchObject({ __typename: "StateConflictError", code: "REQUEST_PAID" });

    const refusal = await gql(
      PayRequest,
      { input: { requestId: created.id, authorization: "a", ledger: "nope.ledger" } },
      merchant.apiKey,
    );
    expect(refusal.data!.requestPay).toMatchObject({ __typename: "ValidationError", code: "INVALID_LEDGER" });
  });

  it("reports query failures as GraphQL errors carrying extensions.code", async () => {
    const merchant = await buildMerchant();
    const missing = await gql(RequestInfo, { id: crypto.randomUUID() }, merchant.apiKey);
    expect(missing.data).toBeNull();
    expect(missing.errors![0]).toMatchObject({ message: "No such request.", extensions: { code: "REQUEST_NOT_FOUND" } });
  });

  it("requires a valid API key", async () => {
    const merchant = await buildMerchant();
    const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 5 };

    const none = await gql(CreateRequest, { input });
    expect(none.data!.requestCreate).toMatchObject({ __typename: "AuthenticationError", code: "KEY_NOT_AUTHORIZED" });
    const unknown = await gql(MerchantConfiguration, { merchantId: merchant.merchantId }, "mk_000000000000_nope");
    expect(unknown.errors![0]!.extensions).toEqual({ code: "KEY_NOT_AUTHORIZED" });

    await revokeApiKey(operator, keyPrefixOf(merchant.apiKey));
    const revoked = await gql(CreateRequest, { input }, merchant.apiKey);
    expect(revoked.data!.requestCreate).toMatchObject({ code: "KEY_NOT_AUTHORIZED" });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("keeps merchants apart and payer keys to reading and paying", async () => {
    const [a, b] = await Promise.all([buildMerchant(), buildMerchant()]);
    const payerKey = await buildPayerKey();
    const created = (await gql(CreateRequest, { input: { merchantId: a.merchantId, asset: "NZD", amount: 5 } }, a.apiKey)).data!
      .requestCreate as { id: string };

    const foreign = await gql(RequestInfo, { id: created.id }, b.apiKey);
    expect(foreign.errors![0]!.extensions).toEqual({ code: "REQUEST_NOT_FOUND" });
    const foreignCancel = await gql(CancelRequest, { input: { requestId: created.id } }, b.apiKey);
    expect(foreignCancel.data!.requestCancel).toMatchObject({ code: "REQUEST_NOT_FOUND" });
    const foreignConfig = await gql(MerchantConfiguration, { merchantId: a.merchantId }, b.apiKey);
    expect(foreignConfig.errors![0]!.extensions).toEqual({ code: "MERCHANT_NOT_FOUND" });

    const payerCancel = await gql(CancelRequest, { input: { requestId: created.id } }, payerKey);
    expect(payerCancel.data!.requestCancel).toMatchObject({ __typename: "ForbiddenError", code: "FORBIDDEN" });
    const payerCreate = await gql(CreateRequest, { input: { merchantId: a.merchantId, asset: "NZD", amount: 5 } }, payerKey);
    expect(payerCreate.data!.requestCreate).toMatchObject({ code: "FORBIDDEN" });
    const payerRead = await gql(WalletRequestInfo, { id: created.id }, payerKey);
    expect(payerRead.data!.paymentRequest.status).toBe("NEW");
    const payerPeek = await gql(RequestInfo, { id: created.id }, payerKey);
    expect(payerPeek.errors![0]).toMatchObject({ path: ["paymentRequest", "refunds"], extensions: { code: "FORBIDDEN" } });
  });
});

describe("GraphQL reads", () => {
  it("shows an overdue request as EXPIRED before the sweep stores it", async () => {
    const merchant = await buildMerchant();
    const created = (
      await gql(CreateRequest, { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 5 } }, merchant.apiKey)
    ).data!.requestCreate as { id: string };
    await db.paymentRequest.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const info = await gql(RequestInfo, { id: created.id }, merchant.apiKey);
    expect(info.data!.paymentRequest.status).toBe("EXPIRED");
    const pay = await gql(
      PayRequest,
      { input: { requestId: created.id, authorization: "a", ledger: "test.uplink" } },
      merchant.apiKey,
    );
    expect(pay.data!.requestPay).toMatchObject({ code: "REQUEST_EXPIRED" });
  });

  it("returns the merchant configuration with icons and units", async () => {
    const merchant = await buildMerchant();
    const result = await gql(MerchantConfiguration, { merchantId: merchant.merchantId }, merchant.apiKey);
    const configuration = result.data!.merchantConfiguration;
    expect(configuration).toMatchObject({ merchantId: merchant.merchantId, clientId: null });
    expect(configuration.items[1]).toMatchObject({
      asset: "sandbox.nzd.wallet",
      index: 1,
      methods: ["QR_CODE", "NFC", "AUTH_ALPHANUMERIC", "AUTH_NUMERIC"],
      units: { label: "NZD", factor: 100 },
      fractionalDigits: 2,
      icon: { mimeType: "image/svg+xml" },
    });
  });

  it("serves GraphiQL to browsers", async () => {
    const response = await app.fetch(new Request("http://test/graphql", { headers: { accept: "text/html" } }));
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/graphiql/i);
  });

  it("answers unknown routes with the contract's 404 body", async () => {
    const response = await app.fetch(new Request("http://test/api/requests.nope"));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, error: "Not Found", message: "Not Found" });
  });
});
