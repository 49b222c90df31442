import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, Prisma } from "../../src/db.js";
import { createRequestInput } from "../../src/domain/requests/schemas.js";
import { fingerprintOf } from "../../src/transport/idempotency.js";
import { gql, rest } from "../fixtures.js";
import { buildMerchant, buildWallet, walletBalance } from "../factories.js";
import { CreateRequest as Create, PayRequest as Pay } from "../operations/requests.js";

const withKey = (key: string) => ({ "idempotency-key": key });

/** A merchant of its own with a funded wallet, a caller that sends an Idempotency-Key, and a create's parameters. */
async function merchantWithWallet() {
  const merchant = await buildMerchant();
  const wallet = await buildWallet(1000);
  const call = (operation: string, key: string, json: object) =>
    rest(operation, { apiKey: merchant.apiKey, headers: withKey(key), json });
  return { merchant, wallet, call, create: { merchantId: merchant.merchantId, asset: "NZD", amount: 400 } };
}

describe("Idempotency-Key", () => {
  it("replays create, pay, refund and cancel: one effect, the same answer", async () => {
    const { merchant, wallet, call, create } = await merchantWithWallet();
    const createKey = randomUUID();
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
    const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 9 };
    const key = randomUUID();
    const first = (await gql(Create, { input, key }, merchant.apiKey)).data!.requestCreate as { id: string };
    const again = (await gql(Create, { input, key }, merchant.apiKey)).data!.requestCreate as { id: string };
    expect(again.id).toBe(first.id);
    const reused = await gql(Create, { input: { ...input, amount: 10 }, key }, merchant.apiKey);
    expect(reused.data!.requestCreate).toMatchObject({ __typename: "StateConflictError", code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it("replays a GraphQL mutation's typed error by its code, even once the call would now succeed", async () => {
    const { merchant, wallet, create } = await merchantWithWallet();
    const created = (await gql(Create, { input: { ...create, amount: 4000 } }, merchant.apiKey)).data!.requestCreate as {
      id: string;
    };
    const input = { requestId: created.id, ledger: "sandbox.nzd.wallet", authorization: wallet.walletId };
    const key = randomUUID();
    const refused = await gql(Pay, { input, key }, merchant.apiKey);
    expect(refused.data!.requestPay).toMatchObject({ __typename: "LedgerRefusedError", code: "INSUFFICIENT_ASSET_BALANCE" });
    // What is kept names the error by its code alone: renaming an error class cannot break a retry.
    const kept = await db.idempotencyKey.findFirstOrThrow({ where: { key } });
    expect(kept.outcome).toEqual({ error: { code: "INSUFFICIENT_ASSET_BALANCE", message: expect.any(String) } });

    await db.sandboxWallet.update({ where: { id: wallet.walletId }, data: { balance: 10_000n } });
    expect(await gql(Pay, { input, key }, merchant.apiKey)).toEqual(refused);
    expect(await walletBalance(wallet.walletId)).toBe(10_000n);
    // Without the key the same pay now goes through.
    expect((await gql(Pay, { input }, merchant.apiKey)).data!.requestPay).toMatchObject({ __typename: "PaymentRequest" });
  });
});

describe("Idempotency-Key compares the parsed input", () => {
  it("keeps and replays the refusal of a parameter whose name is ill-formed text (a lone surrogate, U+0000)", async () => {
    const { merchant, create } = await merchantWithWallet();
    for (const name of ["x\\ud800", "\\udc00", "a\\u0000b"]) {
      const key = randomUUID();
      const body = `{"merchantId":"${create.merchantId}","asset":"NZD","amount":400,"${name}":"y"}`;
      const send = () =>
        rest("requests.create", {
          apiKey: merchant.apiKey,
          headers: withKey(key),
          raw: { body, contentType: "application/json" },
        });
      const first = await send();
      expect({ name, status: first.status, code: first.body.message }).toEqual({ name, status: 400, code: "BAD_REQUEST" });
      const again = await send();
      expect({ name, status: again.status, replayed: again.headers.get("idempotent-replayed") }).toEqual({
        name,
        status: 400,
        replayed: "true",
      });
      expect(again.body).toEqual(first.body);
    }
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("takes one call however its parameters are written: encodings, digit strings, empty optional parameters, the other name", async () => {
    const { merchant, wallet, call } = await merchantWithWallet();
    const key = randomUUID();
    const json = { merchantId: merchant.merchantId, asset: "NZD", amount: 300 };
    const first = await call("requests.create", key, json);
    expect(first.status).toBe(200);
    const form = new URLSearchParams({ merchantId: merchant.merchantId, asset: "NZD", amount: "300", description: "" });
    const same = [
      await call("requests.create", key, { ...json, amount: "300" }),
      await call("requests.create", key, { ...json, description: "", notifyUrl: null, externalReference: "" }),
      await call("requests.create", key, { ...json, asset: " NZD " }),
      await rest("requests.create", { apiKey: merchant.apiKey, headers: withKey(key), form: Object.fromEntries(form) }),
      await rest("requests.create", { apiKey: merchant.apiKey, headers: withKey(key), query: Object.fromEntries(form) }),
    ];
    for (const again of same) {
      expect({ status: again.status, replayed: again.headers.get("idempotent-replayed") }).toEqual({
        status: 200,
        replayed: "true",
      });
      expect(again.body).toEqual(first.body);
    }
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);

    const payKey = randomUUID();
    const pay = { requestId: first.body.requestId, ledger: "sandbox.nzd.wallet" };
    const paid = await call("requests.pay", payKey, { ...pay, authorization: wallet.walletId });
    const alias = await call("requests.pay", payKey, { ...pay, paymentAuthorization: wallet.walletId });
    expect({ status: alias.status, body: alias.body }).toEqual({ status: 200, body: paid.body });
    expect(await walletBalance(wallet.walletId)).toBe(700n);
  });

  it("keeps different parameters different: unknown identifiers, and a refused input against an accepted one", async () => {
    const { merchant, call, create } = await merchantWithWallet();
    // Two identifiers that name nothing are two calls, not a replay of the first's 404.
    const cancelKey = randomUUID();
    expect(await call("requests.cancel", cancelKey, { requestId: "abc" })).toMatchObject({ status: 404 });
    const trimmed = await call("requests.cancel", cancelKey, { requestId: " abc" });
    expect({ status: trimmed.status, replayed: trimmed.headers.get("idempotent-replayed") }).toEqual({
      status: 404,
      replayed: "true",
    });
    expect(await call("requests.cancel", cancelKey, { requestId: "xyz" })).toMatchObject({
      status: 422,
      body: { message: "IDEMPOTENCY_KEY_REUSED" },
    });

    // A refused input is refused again the same way, and never turns into the accepted call's replay.
    const refusedKey = randomUUID();
    const refused = await call("requests.create", refusedKey, { ...create, amount: "300.0" });
    expect(refused).toMatchObject({ status: 400, body: { message: "INVALID_AMOUNT" } });
    expect((await call("requests.create", refusedKey, { ...create, amount: "300.0" })).body).toEqual(refused.body);
    expect(await call("requests.create", refusedKey, create)).toMatchObject({ status: 422 });

    const acceptedKey = randomUUID();
    expect(await call("requests.create", acceptedKey, { ...create, description: "d" })).toMatchObject({ status: 200 });
    for (const other of [{ description: "d\ud800" }, { description: 5 }, { amount: 400.5 }, { merchantId: "abc" }])
      expect(await call("requests.create", acceptedKey, { ...create, description: "d", ...other })).toMatchObject({
        status: 422,
        body: { message: "IDEMPOTENCY_KEY_REUSED" },
      });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it("does the same for GraphQL mutations", async () => {
    const merchant = await buildMerchant();
    const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 9 };
    const key = randomUUID();
    const first = (await gql(Create, { input, key }, merchant.apiKey)).data!.requestCreate as { id: string };
    for (const same of [
      { ...input, amount: "9" },
      { ...input, description: "" },
      { ...input, clientId: null, notifyUrl: null },
    ])
      expect((await gql(Create, { input: same, key }, merchant.apiKey)).data!.requestCreate).toMatchObject({
        __typename: "PaymentRequest",
        id: first.id,
      });
    expect(
      (await gql(Create, { input: { ...input, description: "other" }, key }, merchant.apiKey)).data!.requestCreate,
    ).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });
});

describe("Idempotency-Key after a crash", () => {
  /** The state a process leaves when it stops after its write committed and before it kept the response. */
  const loseOutcome = (key: string) => db.idempotencyKey.updateMany({ where: { key }, data: { outcome: Prisma.DbNull } });

  it("answers a retry with the first outcome when the write committed but its response was never kept", async () => {
    const { merchant, wallet, call, create } = await merchantWithWallet();
    const createKey = randomUUID();
    const first = await call("requests.create", createKey, create);
    await loseOutcome(createKey);
    const retry = await call("requests.create", createKey, create);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);

    const paid = await call("requests.pay", randomUUID(), {
      requestId: first.body.requestId,
      ledger: "sandbox.nzd.wallet",
      authorization: wallet.walletId,
    });
    const refundKey = randomUUID();
    const refund = { transactionId: paid.body.paidBy.transactionId, amount: 150 };
    const refunded = await call("transactions.refund", refundKey, refund);
    await loseOutcome(refundKey);
    const refundRetry = await call("transactions.refund", refundKey, refund);
    expect(refundRetry).toMatchObject({ status: 200, body: refunded.body });
    expect(await walletBalance(wallet.walletId)).toBe(750n);

    // GraphQL's typed mutations alike: the retry gets the same request, no second one.
    const gqlKey = randomUUID();
    const created = await gql(Create, { input: create, key: gqlKey }, merchant.apiKey);
    await loseOutcome(gqlKey);
    expect(await gql(Create, { input: create, key: gqlKey }, merchant.apiKey)).toMatchObject({ data: created.data });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(2);
  });

  it("lets a retry take over a claim whose call died before its write committed, once the claim's lease is over", async () => {
    const merchant = await buildMerchant();
    const create = { merchantId: merchant.merchantId, asset: "NZD", amount: 400 };
    const prefix = (await db.apiKey.findFirstOrThrow({ where: { merchantId: merchant.merchantId } })).prefix;
    const claimAs = (key: string, ageMs: number) =>
      db.idempotencyKey.create({
        data: {
          apiKeyPrefix: prefix,
          key,
          fingerprint: fingerprintOf("requests.create", createRequestInput, create),
          createdAt: new Date(Date.now() - ageMs),
          expiresAt: new Date(Date.now() + 3_600_000),
        },
      });
    const call = (key: string) => rest("requests.create", { apiKey: merchant.apiKey, headers: withKey(key), json: create });

    const recent = randomUUID();
    await claimAs(recent, 1_000);
    expect(await call(recent)).toMatchObject({ status: 409, body: { message: "IDEMPOTENCY_KEY_IN_USE" } });

    const abandoned = randomUUID();
    await claimAs(abandoned, 5 * 60_000);
    const taken = await call(abandoned);
    expect(taken.status).toBe(200);
    expect(await call(abandoned)).toMatchObject({ status: 200, body: taken.body });
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });
});
