import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { gql, rest } from "../fixtures.js";
import { buildMerchant, buildWallet, walletBalance } from "../factories.js";
import { graphql } from "../gql/index.js";

const withKey = (key: string) => ({ "idempotency-key": key });

describe("Idempotency-Key", () => {
  it("replays create, pay, refund and cancel: one effect, the same answer", async () => {
    const merchant = await buildMerchant();
    const wallet = await buildWallet(1000);
    const call = (operation: string, key: string, json: object) =>
      rest(operation, { apiKey: merchant.apiKey, headers: withKey(key), json });

    const createKey = randomUUID();
    const create = { merchantId: merchant.merchantId, asset: "NZD", amount: 400 };
    const first = await call("requests.create", createKey, create);
    const again = await call("requests.create", createKey, create);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);

    const pay = { requestId: first.body.requestId, ledger: "sandbox.nzd.wallet", authorization: wallet.walletId };
    const payKey = randomUUID();
    const paid = await call("requests.pay", payKey, pay);
    expect((await call("requests.pay", payKey, pay)).body).toEqual(paid.body);
    expect(await walletBalance(wallet.walletId)).toBe(600n);

    const refund = { transactionId: paid.body.paidBy.transactionId, amount: 100 };
    const refundKey = randomUUID();
    const refunded = await call("transactions.refund", refundKey, refund);
    expect((await call("transactions.refund", refundKey, refund)).body).toEqual(refunded.body);
    expect(await walletBalance(wallet.walletId)).toBe(700n);

    const other = await call("requests.create", randomUUID(), create);
    const cancelKey = randomUUID();
    const cancelled = await call("requests.cancel", cancelKey, { requestId: other.body.requestId });
    expect((await call("requests.cancel", cancelKey, { requestId: other.body.requestId })).body).toEqual(cancelled.body);
  });

  it("replays an error as it first was", async () => {
    const merchant = await buildMerchant();
    const key = randomUUID();
    const bad = { merchantId: merchant.merchantId, asset: "NZD", amount: 0 };
    const first = await rest("requests.create", { apiKey: merchant.apiKey, headers: withKey(key), json: bad });
    const again = await rest("requests.create", { apiKey: merchant.apiKey, headers: withKey(key), json: bad });
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(again.body).toEqual(first.body);
  });

  it("answers 422 IDEMPOTENCY_KEY_REUSED for the same key with other parameters, and changes nothing", async () => {
    const merchant = await buildMerchant();
    const key = randomUUID();
    await rest("requests.create", {
      apiKey: merchant.apiKey,
      headers: withKey(key),
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 1 },
    });
    const reused = await rest("requests.create", {
      apiKey: merchant.apiKey,
      headers: withKey(key),
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 2 },
    });
    expect(reused).toMatchObject({ status: 422, body: { statusCode: 422, message: "IDEMPOTENCY_KEY_REUSED" } });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it("runs concurrent calls with one key once: the others get 409 IDEMPOTENCY_KEY_IN_USE or the replay", async () => {
    const merchant = await buildMerchant();
    const key = randomUUID();
    const json = { merchantId: merchant.merchantId, asset: "NZD", amount: 7 };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => rest("requests.create", { apiKey: merchant.apiKey, headers: withKey(key), json })),
    );
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.message).toBe("IDEMPOTENCY_KEY_IN_USE");
      else expect(answer.status).toBe(200);
    }
    expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.body.requestId)).size).toBe(1);
  });

  it("scopes keys per API key", async () => {
    const [a, b] = await Promise.all([buildMerchant(), buildMerchant()]);
    const key = randomUUID();
    const first = await rest("requests.create", {
      apiKey: a.apiKey,
      headers: withKey(key),
      json: { merchantId: a.merchantId, asset: "NZD", amount: 1 },
    });
    const second = await rest("requests.create", {
      apiKey: b.apiKey,
      headers: withKey(key),
      json: { merchantId: b.merchantId, asset: "NZD", amount: 1 },
    });
    expect(second.status).toBe(200);
    expect(second.body.requestId).not.toBe(first.body.requestId);
  });

  it("works for GraphQL mutations through idempotencyKey", async () => {
    const merchant = await buildMerchant();
    const Create = graphql(`
      mutation IdempotentCreate($input: RequestCreateInput!, $key: String) {
        requestCreate(input: $input, idempotencyKey: $key) {
          __typename
          ... on PaymentRequest {
            id
          }
          ... on Error {
            code
          }
        }
      }
    `);
    const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 9 };
    const key = randomUUID();
    const first = (await gql(Create, { input, key }, merchant.apiKey)).data!.requestCreate as { id: string };
    const again = (await gql(Create, { input, key }, merchant.apiKey)).data!.requestCreate as { id: string };
    expect(again.id).toBe(first.id);
    const reused = await gql(Create, { input: { ...input, amount: 10 }, key }, merchant.apiKey);
    expect(reused.data!.requestCreate).toMatchObject({ __typename: "StateConflictError", code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });
});
