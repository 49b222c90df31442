import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { closeDatabase, openDatabase, replica } from "../../src/db.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { createApiKey } from "../../src/domain/keys/create.js";
import { writeMark } from "../../src/transport/read-your-writes.js";
import { testEnv } from "../../vitest.config.js";
import { replicatedDatabase } from "../../scripts/engines/postgres-replica.js";
import { buildMerchant, buildPayerKey, buildRequest, operator } from "../factories.js";
import { createTestApp } from "../test-app.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";
import { silentLogger } from "../worker/harness.js";

const redis = new Redis(testEnv.REDIS_URL);
afterAll(() => redis.quit());

const createParams = (merchantId: string) => ({ merchantId, asset: "NZD", amount: 1000 });

describe("without DATABASE_READ_URL", () => {
  it("opens no replica, and a write notes nothing in Redis", async () => {
    const app = createTestApp();
    const merchant = await buildMerchant();
    const response = await app.fetch(
      new Request("http://test/api/requests.create", {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey, "content-type": "application/json" },
        body: JSON.stringify(createParams(merchant.merchantId)),
      }),
    );
    expect(response.status).toBe(200);
    expect(replica).toBeUndefined();
    expect(await redis.exists(writeMark(merchant.merchantId))).toBe(0);
  });
});

describe("with DATABASE_READ_URL, a streaming replica", () => {
  const engine = inject("engines").replica;
  let database: Awaited<ReturnType<typeof replicatedDatabase>>;
  let api: Awaited<ReturnType<typeof startApiProcess>>;
  let primarySql: pg.Pool;
  let replicaSql: pg.Pool;

  beforeAll(async () => {
    database = await replicatedDatabase(engine, engine.template);
    // The factories write where the API's primary is.
    await closeDatabase();
    openDatabase({ url: database.primaryUrl, poolSize: 5 }, silentLogger);
    primarySql = new pg.Pool({ connectionString: database.primaryUrl, max: 2 });
    replicaSql = new pg.Pool({ connectionString: database.replicaUrl, max: 2 });
    api = await startApiProcess({ DATABASE_URL: database.primaryUrl, DATABASE_READ_URL: database.replicaUrl });
  });
  afterAll(async () => {
    await replicaSql?.query("SELECT pg_wal_replay_resume()").catch(() => {});
    api?.kill();
    await Promise.all([primarySql?.end(), replicaSql?.end(), closeDatabase()]);
    await database?.drop();
  });

  /** Waits until the replica has replayed everything committed on the primary so far. */
  async function caughtUp() {
    const { rows } = await primarySql.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn");
    await until(
      async () => (await replicaSql.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [rows[0]!.lsn])).rows[0].ok,
      Boolean,
      10_000,
      "the replica to replay the primary's WAL",
    );
  }

  /** Runs `work` while the replica replays nothing (it still receives the WAL). */
  async function replayPaused<T>(work: () => Promise<T>): Promise<T> {
    await replicaSql.query("SELECT pg_wal_replay_pause()");
    try {
      await until(
        async () => (await replicaSql.query("SELECT pg_get_wal_replay_pause_state() AS state")).rows[0].state,
        (state) => state === "paused",
        10_000,
        "replay to pause",
      );
      return await work();
    } finally {
      await replicaSql.query("SELECT pg_wal_replay_resume()");
    }
  }

  async function rest(apiKey: string, operation: string, params: object, headers: Record<string, string> = {}) {
    const response = await fetch(`${api.base}/api/${operation}`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json", ...headers },
      body: JSON.stringify(params),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  }

  async function graphql(apiKey: string, query: string, variables: object = {}) {
    const response = await fetch(`${api.base}/graphql`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
    if (body.errors) throw new Error(`GraphQL answered errors: ${JSON.stringify(body.errors)}`);
    return body.data!;
  }

  /** The ids of a merchant's requests, as its dashboard lists them. */
  const listed = async (apiKey: string): Promise<string[]> =>
    (await graphql(apiKey, "{ paymentRequests(first: 100) { edges { node { id } } } }")).paymentRequests.edges.map(
      (edge: { node: { id: string } }) => edge.node.id,
    );

  /** A request as a dashboard reads it: its status, and its audit trail. */
  const dashboardView = async (apiKey: string, id: string) =>
    (await graphql(apiKey, "query ($id: ID!) { paymentRequest(id: $id) { status activities { action } } }", { id }))
      .paymentRequest as { status: string; activities: { action: string }[] };

  it("reads lists, requests and the audit trail from the replica, and a merchant's own writes at once", async () => {
    const [viaGraphql, viaRest, reader] = await Promise.all([buildMerchant(), buildMerchant(), buildMerchant()]);
    const payerKey = await buildPayerKey();
    // Each merchant's own write, replayed before replay pauses: their reads may use the replica.
    const [cancellable, earlier, own] = await Promise.all(
      [viaGraphql, viaRest, reader].map(
        async ({ apiKey, merchantId }) =>
          (await rest(apiKey, "requests.create", createParams(merchantId))).body.requestId as string,
      ),
    );
    await caughtUp();

    const unseen = await replayPaused(async () => {
      // What a merchant's keys change, every key of the merchant reads at once (from the primary),
      // changed with GraphQL (read in the same call, and in a later one) or with REST.
      const cancelled = await graphql(
        viaGraphql.apiKey,
        "mutation ($id: ID!) { requestCancel(input: { requestId: $id }) { ... on PaymentRequest { status activities { action } } } }",
        { id: cancellable },
      );
      expect(cancelled.requestCancel).toEqual({
        status: "CANCELLED",
        activities: [{ action: "request.created" }, { action: "request.cancelled" }],
      });
      expect(await dashboardView(viaGraphql.apiKey, cancellable!)).toMatchObject({ status: "CANCELLED" });

      const created = await rest(viaRest.apiKey, "requests.create", createParams(viaRest.merchantId));
      expect(created.status).toBe(200);
      const id = created.body.requestId as string;
      expect(await listed(viaRest.apiKey)).toEqual([id, earlier]);
      expect(await dashboardView(viaRest.apiKey, id)).toEqual({ status: "NEW", activities: [{ action: "request.created" }] });
      const otherKey = (await createApiKey(operator, { kind: "MERCHANT", merchantId: viaRest.merchantId })).apiKey;
      expect(await listed(otherKey)).toEqual([id, earlier]);

      // Changes the reader's keys did not make: a request made on the primary directly, and a
      // payer's payment. The reader's dashboard reads the replica, which has not replayed them.
      const { request: direct } = await buildRequest({ merchant: reader });
      const paid = await rest(payerKey, "requests.pay", { requestId: own!, ledger: "test.uplink", authorization: "x" });
      expect(paid.status).toBe(200);
      expect(await listed(reader.apiKey)).toEqual([own]);
      expect(await dashboardView(reader.apiKey, own!)).toEqual({ status: "NEW", activities: [{ action: "request.created" }] });
      // requests.info is not a dashboard read: it reads the primary.
      expect((await rest(reader.apiKey, "requests.info", { requestId: own })).body.status).toBe("paid");
      return direct.id;
    });

    const after = await until(
      () => listed(reader.apiKey),
      (ids) => ids.includes(unseen),
      10_000,
      "the reader's list to show the request once replay resumed",
    );
    expect(after).toEqual([unseen, own]);
    expect(await dashboardView(reader.apiKey, own!)).toEqual({
      status: "PAID",
      activities: [{ action: "request.created" }, { action: "request.paid" }],
    });
  });

  it("decides payments, refunds, cancels, idempotent retries and revoked keys on the primary", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const revokedKey = (await createApiKey(operator, { kind: "MERCHANT", merchantId: merchant.merchantId })).apiKey;
    await caughtUp();

    await replayPaused(async () => {
      const requestId = (await rest(merchant.apiKey, "requests.create", createParams(merchant.merchantId))).body
        .requestId as string;
      // A payer looks a request up before paying it: on the primary, so a new request is found.
      const looked = await graphql(payerKey, "query ($id: ID!) { paymentRequest(id: $id) { status } }", { id: requestId });
      expect(looked.paymentRequest).toEqual({ status: "NEW" });

      const pay = { requestId, ledger: "test.uplink", authorization: "x" };
      const paid = await rest(payerKey, "requests.pay", pay);
      expect(paid.status).toBe(200);
      expect((await rest(payerKey, "requests.pay", pay)).body.message).toBe("REQUEST_PAID");
      expect((await rest(merchant.apiKey, "requests.cancel", { requestId })).body.message).toBe("REQUEST_PAID");

      const transactionId = paid.body.paidBy.transactionId as string;
      const idempotencyKey = { "idempotency-key": randomUUID() };
      const refund = await rest(merchant.apiKey, "transactions.refund", { transactionId, amount: 600 }, idempotencyKey);
      expect(refund.status).toBe(200);
      const retried = await rest(merchant.apiKey, "transactions.refund", { transactionId, amount: 600 }, idempotencyKey);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect(retried.body).toEqual(refund.body);
      const more = { transactionId, amount: 600, externalReference: "second" };
      expect((await rest(merchant.apiKey, "transactions.refund", more)).body.message).toBe("INVALID_AMOUNT");

      // Revoked on the primary alone (no mark in Redis), before its first use: refused at once.
      await primarySql.query("UPDATE api_key SET revoked_at = now() WHERE prefix = $1", [keyPrefixOf(revokedKey)]);
      const refused = await rest(revokedKey, "requests.info", { requestId });
      expect([refused.status, refused.body.message]).toEqual([401, "KEY_NOT_AUTHORIZED"]);
    });
  });
});
