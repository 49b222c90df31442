/**
 * The idempotency rule (src/transport/idempotency.ts; docs/api.md, "Retrying writes safely"), the
 * same over REST, GraphQL and the pay page: a typed refusal is kept and replayed; an outage, a
 * refusal a retry may get past and a bug are not kept, so a retry runs again; another input under
 * the key is IDEMPOTENCY_KEY_REUSED; a retry while the first call runs, or after a crash, is
 * answered as the rule says. Then what REST and GraphQL add: every write, parameters written
 * differently, concurrent calls, scopes.
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db, Prisma } from "../prisma.js";
import { ExternalServiceError, RateLimitedError } from "../../src/domain/errors.js";
import { sandboxWallet } from "../../src/domain/ledgers/connectors/sandbox-wallet.js";
import { app, gql, rest } from "../fixtures.js";
import { buildMerchant, buildRequest, buildWallet, walletBalance, type TestMerchant } from "../factories.js";
import { CreateRequest as Create, PayRequest as Pay } from "../operations/requests.js";
import { until } from "../until.js";

/** How a transport answered a payment: PAID or the error's code, and whether it said it replayed. */
interface PayAnswer {
  status: number;
  outcome: string;
  /** The transport's replay marker (`Idempotent-Replayed: true`); GraphQL has none. */
  replayed: boolean | null;
}

interface Transport {
  name: string;
  pay: (
    key: string,
    to: { merchant: TestMerchant; requestId: string; requestCode: string },
    wallet: string,
  ) => Promise<PayAnswer>;
}

const LEDGER = "sandbox.nzd.wallet";
const CSRF = "t".repeat(32);

const transports: Transport[] = [
  {
    name: "REST",
    pay: async (key, { merchant, requestId }, wallet) => {
      const json = { requestId, ledger: LEDGER, authorization: wallet };
      const { status, headers, body } = await rest("requests.pay", {
        apiKey: merchant.apiKey,
        headers: { "idempotency-key": key },
        json,
      });
      const replayed = headers.get("idempotent-replayed") === "true";
      return { status, outcome: status === 200 ? body.status.toUpperCase() : body.message, replayed };
    },
  },
  {
    name: "GraphQL",
    pay: async (key, { merchant, requestId }, wallet) => {
      const input = { requestId, ledger: LEDGER, authorization: wallet };
      const { status, data, errors } = await gql(Pay, { input, key }, merchant.apiKey);
      const result = data?.requestPay;
      const outcome = !result ? String(errors?.[0]?.extensions?.["code"]) : "code" in result ? result.code : result.status;
      return { status, outcome, replayed: null };
    },
  },
  {
    name: "the pay page",
    pay: async (key, { requestCode }, wallet) => {
      const response = await app.fetch(
        new Request(`http://test/pay/${requestCode}`, {
          method: "POST",
          headers: {
            accept: "application/json",
            "content-type": "application/x-www-form-urlencoded",
            cookie: `payreq_pay_csrf=${CSRF}`,
          },
          body: new URLSearchParams({ csrf: CSRF, idempotencyKey: key, wallet }).toString(),
        }),
      );
      const body = (await response.json()) as { status?: string; error?: { code: string }; message?: string };
      const outcome = response.status === 200 ? body.status!.toUpperCase() : (body.error?.code ?? body.message!);
      return { status: response.status, outcome, replayed: response.headers.get("idempotent-replayed") === "true" };
    },
  },
];

/** A request of 400 of a merchant of its own, and a wallet holding `balance`. */
async function requestAndWallet(balance: number) {
  const { merchant, request } = await buildRequest({ amount: 400 });
  const { walletId } = await buildWallet(balance);
  return { to: { merchant, requestId: request.id, requestCode: request.requestCode }, walletId };
}

/** The HTTP status of a refusal: GraphQL answers a typed error as a result, with 200. */
const statusOf = (transport: Transport, status: number) => (transport.name === "GraphQL" ? 200 : status);

const claimOf = (key: string) => db.idempotencyKey.findFirstOrThrow({ where: { key } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(transports)("the idempotency rule over $name", (transport) => {
  it("keeps a typed refusal: a retry is told it again, even once the payment would go through", async () => {
    const { to, walletId } = await requestAndWallet(100);
    const key = randomUUID();
    const refused = await transport.pay(key, to, walletId);
    expect(refused).toMatchObject({ status: statusOf(transport, 403), outcome: "INSUFFICIENT_ASSET_BALANCE" });
    expect(refused.replayed).not.toBe(true);
    // What is kept names the refusal by its code alone: renaming an error class cannot break a retry.
    expect((await claimOf(key)).outcome).toEqual({
      refusal: { code: "INSUFFICIENT_ASSET_BALANCE", message: expect.any(String) },
    });

    await db.sandboxWallet.update({ where: { id: walletId }, data: { balance: 1000n } });
    const again = await transport.pay(key, to, walletId);
    expect(again).toEqual({ ...refused, replayed: refused.replayed === null ? null : true });
    expect(await walletBalance(walletId)).toBe(1000n);
    expect(await transport.pay(randomUUID(), to, walletId)).toMatchObject({ status: 200, outcome: "PAID" });
  });

  it.each([
    [
      "an outage (the ledger unavailable)",
      () => new ExternalServiceError("The ledger is unavailable."),
      503,
      "EXTERNAL_SERVICE_ERROR",
    ],
    ["a refusal a retry may get past (a rate limit)", () => new RateLimitedError(1), 429, "RATE_LIMIT_EXCEEDED"],
    ["a bug", () => new Error("a bug"), 500, undefined],
  ] as const)("does not keep %s: the key is released and a retry pays", async (_what, failure, status, code) => {
    const { to, walletId } = await requestAndWallet(1000);
    vi.spyOn(sandboxWallet, "authorize").mockRejectedValueOnce(failure());
    const key = randomUUID();
    const failed = await transport.pay(key, to, walletId);
    if (transport.name !== "GraphQL") expect(failed.status).toBe(status);
    if (code) expect(failed.outcome).toBe(code);
    expect(failed.outcome).not.toBe("PAID");
    expect(await db.idempotencyKey.count({ where: { key } })).toBe(0);

    expect(await transport.pay(key, to, walletId)).toMatchObject({ status: 200, outcome: "PAID" });
    expect(await walletBalance(walletId)).toBe(600n);
    expect(await transport.pay(key, to, walletId)).toMatchObject({ status: 200, outcome: "PAID" });
    expect(await walletBalance(walletId)).toBe(600n);
  });

  it("refuses the key with another input (422 IDEMPOTENCY_KEY_REUSED), paying nothing", async () => {
    const { to, walletId } = await requestAndWallet(1000);
    const other = (await buildWallet(1000)).walletId;
    const key = randomUUID();
    expect(await transport.pay(key, to, walletId)).toMatchObject({ status: 200, outcome: "PAID" });
    expect(await transport.pay(key, to, other)).toMatchObject({
      status: statusOf(transport, 422),
      outcome: "IDEMPOTENCY_KEY_REUSED",
    });
    expect([await walletBalance(walletId), await walletBalance(other)]).toEqual([600n, 1000n]);
  });

  it("answers a retry while the first call runs with 409 IDEMPOTENCY_KEY_IN_USE, and once it ran with its outcome", async () => {
    const { to, walletId } = await requestAndWallet(1000);
    let letThrough!: () => void;
    const gate = new Promise<void>((resolve) => (letThrough = resolve));
    const authorize = sandboxWallet.authorize.bind(sandboxWallet);
    const held = vi.spyOn(sandboxWallet, "authorize").mockImplementationOnce(async (...args) => {
      await gate;
      return authorize(...args);
    });
    const key = randomUUID();
    const first = transport.pay(key, to, walletId);
    await until(
      () => held.mock.calls.length,
      (calls) => calls === 1,
      10_000,
      "the first call at the ledger",
    );
    expect(await transport.pay(key, to, walletId)).toMatchObject({
      status: statusOf(transport, 409),
      outcome: "IDEMPOTENCY_KEY_IN_USE",
    });
    letThrough();
    expect(await first).toMatchObject({ status: 200, outcome: "PAID" });
    const again = await transport.pay(key, to, walletId);
    expect(again).toMatchObject({ status: 200, outcome: "PAID" });
    if (again.replayed !== null) expect(again.replayed).toBe(true);
    expect(await walletBalance(walletId)).toBe(600n);
  });

  it("after a crash between the payment's commit and keeping its outcome, answers a retry with the payment", async () => {
    const { to, walletId } = await requestAndWallet(1000);
    const key = randomUUID();
    expect(await transport.pay(key, to, walletId)).toMatchObject({ status: 200, outcome: "PAID" });
    // What a process that stopped there leaves: the claim, with the entity the write recorded, and no outcome.
    await db.idempotencyKey.updateMany({ where: { key }, data: { outcome: Prisma.DbNull } });
    expect((await claimOf(key)).entityId).toBe(to.requestId);
    const retry = await transport.pay(key, to, walletId);
    expect(retry).toMatchObject({ status: 200, outcome: "PAID" });
    if (retry.replayed !== null) expect(retry.replayed).toBe(true);
    expect(await walletBalance(walletId)).toBe(600n);
  });

  it("after a crash before anything committed, answers IDEMPOTENCY_KEY_IN_USE until the claim's lease is over, then runs", async () => {
    const { to, walletId } = await requestAndWallet(100);
    const key = randomUUID();
    expect(await transport.pay(key, to, walletId)).toMatchObject({ outcome: "INSUFFICIENT_ASSET_BALANCE" });
    await db.sandboxWallet.update({ where: { id: walletId }, data: { balance: 1000n } });
    // What a process that stopped in the call leaves: the claim, nothing recorded on it.
    const diedAgo = (ms: number) =>
      db.idempotencyKey.updateMany({ where: { key }, data: { outcome: Prisma.DbNull, createdAt: new Date(Date.now() - ms) } });
    await diedAgo(1_000);
    expect(await transport.pay(key, to, walletId)).toMatchObject({ outcome: "IDEMPOTENCY_KEY_IN_USE" });
    await diedAgo(5 * 60_000);
    expect(await transport.pay(key, to, walletId)).toMatchObject({ status: 200, outcome: "PAID" });
    expect(await walletBalance(walletId)).toBe(600n);
  });
});

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

describe("REST after a crash", () => {
  /** The state a process leaves when it stops after its write committed and before it kept the response. */
  const loseOutcome = (key: string) => db.idempotencyKey.updateMany({ where: { key }, data: { outcome: Prisma.DbNull } });

  it("rebuilds each write's answer from its entity when the write committed but its response was never kept", async () => {
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
  });
});
