import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pool } from "../../src/db.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { expireOverdueRequests } from "../../src/domain/requests/expire.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { graphqlPost, rest } from "../fixtures.js";
import { buildMerchant, buildPayerKey, buildRequest, payer, type TestMerchant } from "../factories.js";

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type ApiEvent = {
  eventId: string;
  type: string;
  createdAt: string;
  requestId: string;
  transaction?: Record<string, unknown>;
  request?: Record<string, unknown>;
};
type Page = { events: ApiEvent[]; nextCursor: string | null };

/** events.list over REST, answering 200 with a page. */
async function listed(apiKey: string, query: Record<string, string> = {}): Promise<Page> {
  const { status, body } = await rest("events.list", { apiKey, query });
  expect(status, JSON.stringify(body)).toBe(200);
  return body as Page;
}

const EVENTS = `query Events($first: Int, $after: String, $types: [EventType!], $createdFrom: DateTime, $createdTo: DateTime, $requestId: ID) {
  events(first: $first, after: $after, types: $types, createdFrom: $createdFrom, createdTo: $createdTo, requestId: $requestId) {
    events { id type name createdAt requestId data request { id status } }
    nextCursor
  }
}`;
type GraphQLPage = {
  events: {
    id: string;
    type: string;
    name: string;
    createdAt: string;
    requestId: string;
    data: unknown;
    request: { id: string; status: string };
  }[];
  nextCursor: string | null;
};

/** The events query over GraphQL: the page, or the first error's code. */
async function queried(apiKey: string, variables: object = {}): Promise<{ page?: GraphQLPage; code?: string }> {
  const { body } = await graphqlPost(apiKey, EVENTS, variables);
  if (body.errors?.length) return { code: body.errors[0]!.extensions?.code };
  return { page: body.data!["events"] as GraphQLPage };
}

/**
 * Writes events of the merchant straight into `event` (the events API only reads them), each of one
 * of its requests, with the given type and time and a payload naming it.
 */
async function insertEvents(
  merchant: TestMerchant,
  rows: { type: string; requestId: string; createdAt: Date }[],
): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  await pool.query(
    `INSERT INTO event (id, merchant_id, type, request_id, payload, created_at)
     SELECT id, $2, type::"EventType", request_id, jsonb_build_object('marker', id), created_at
     FROM unnest($1::uuid[], $3::text[], $4::uuid[], $5::timestamp(3)[]) AS r(id, type, request_id, created_at)`,
    [
      ids,
      merchant.merchantId,
      rows.map((r) => r.type),
      rows.map((r) => r.requestId),
      rows.map((r) => r.createdAt.toISOString().replace("Z", "")),
    ],
  );
  return ids;
}

/** `count` events of one new request of the merchant, the i-th as `each(i)` says; the request. */
async function eventsOfOneRequest(merchant: TestMerchant, count: number, each: (i: number) => { type: string; createdAt: Date }) {
  const { request } = await buildRequest({ merchant });
  await insertEvents(
    merchant,
    Array.from({ length: count }, (_, i) => ({ ...each(i), requestId: request.id })),
  );
  return request;
}

/** The merchant's event ids in the list's order, read from the table itself. */
async function idsInOrder(merchantId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    "SELECT id FROM event WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC",
    [merchantId],
  );
  return rows.map((row) => row.id);
}

describe("the events API lists what payments, refunds, cancellations and expiries wrote", () => {
  it("answers each event, newest first, with the object its endpoint token carries, over REST and GraphQL", async () => {
    const merchant = await buildMerchant();
    const { request: paid } = await buildRequest({ merchant, externalReference: "ord-1" });
    const payment = await payRequest(payer, { requestId: paid.id, authorization: "x", ledger: "test.uplink" });
    const refund = await rest("transactions.refund", {
      apiKey: merchant.apiKey,
      form: { transactionId: payment.purchase!.id, amount: "100" },
    });
    expect(refund.status).toBe(200);
    const { request: cancelled } = await buildRequest({ merchant, description: "Flat white", externalReference: "ord-2" });
    await cancelRequest(merchant.ctx, { requestId: cancelled.id });
    const { request: overdue } = await buildRequest({ merchant, paymentExpirySeconds: 1 });
    await expireOverdueRequests(new Date(overdue.expiresAt.getTime() + 1), { merchantId: merchant.merchantId });

    const { events, nextCursor } = await listed(merchant.apiKey);
    expect(nextCursor).toBeNull();
    expect(events.map((e) => [e.type, e.requestId])).toEqual([
      ["request.expired", overdue.id],
      ["request.cancelled", cancelled.id],
      ["refund.completed", paid.id],
      ["payment.completed", paid.id],
    ]);
    for (const event of events) {
      expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(event.createdAt).toMatch(ISO_MS);
      // One object per event, under its claim; no nulls.
      expect(Object.keys(event).sort()).toEqual(
        ["createdAt", "eventId", "requestId", "type", event.type.startsWith("request.") ? "request" : "transaction"].sort(),
      );
    }
    const [expired, cancellation, refunded, purchased] = events as [ApiEvent, ApiEvent, ApiEvent, ApiEvent];

    // A transaction event carries the transaction as notifications (and the refund's answer) do.
    expect(refunded.transaction).toEqual(refund.body);
    expect(refunded.createdAt).toBe(refund.body.createdAt);
    expect(purchased.transaction).toMatchObject({
      transactionId: payment.purchase!.id,
      transactionType: "PURCHASE",
      ledger: "test.uplink",
      state: "completed",
      amount: 1000,
      request: { requestId: paid.id, merchantId: merchant.merchantId, externalReference: "ord-1" },
    });
    expect(purchased.createdAt).toBe(payment.purchase!.createdAt.toISOString());

    // A request event carries the request as requests.info answers the merchant, without its payment options and addresses.
    for (const [event, request, status] of [
      [cancellation, cancelled, "cancelled"],
      [expired, overdue, "expired"],
    ] as const) {
      const info = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: request.id } });
      const { payments: _p, qrCode: _q, ...rest_ } = info.body;
      expect(info.body.status).toBe(status);
      expect(event.request).toEqual(rest_);
      expect(event.createdAt).toBe(info.body.updatedAt);
    }
    expect(cancellation.request).toMatchObject({ description: "Flat white", externalReference: "ord-2" });

    // GraphQL lists the same events, with the same objects.
    const { page } = await queried(merchant.apiKey);
    expect(page!.nextCursor).toBeNull();
    expect(page!.events).toEqual(
      events.map((e) => ({
        id: e.eventId,
        type: e.type.toUpperCase().replace(".", "_"),
        name: e.type,
        createdAt: e.createdAt,
        requestId: e.requestId,
        data: e.transaction ?? e.request,
        request: {
          id: e.requestId,
          status: e.requestId === paid.id ? "PAID" : e.type === "request.expired" ? "EXPIRED" : "CANCELLED",
        },
      })),
    );
  });
});

describe("paging", () => {
  it("pages through 1,000 events without a gap or a duplicate while new ones arrive, over REST and GraphQL", async () => {
    const merchant = await buildMerchant();
    // Three events to each millisecond: the id breaks the ties.
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    const request = await eventsOfOneRequest(merchant, 1000, (i) => ({
      type: ["PAYMENT_COMPLETED", "REFUND_COMPLETED", "REQUEST_CANCELLED", "REQUEST_EXPIRED"][i % 4]!,
      createdAt: new Date(base + Math.floor(i / 3)),
    }));
    const before = await idsInOrder(merchant.merchantId);
    expect(before).toHaveLength(1000);

    // REST, 100 a page: ten pages, the last of which says so. Events arrive between pages.
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: Page = await listed(merchant.apiKey, { limit: "100", ...(after ? { after } : {}) });
      seen.push(...page.events.map((e) => e.eventId));
      after = page.nextCursor;
      pages++;
      await insertEvents(merchant, [{ type: "PAYMENT_COMPLETED", requestId: request.id, createdAt: new Date() }]);
      if (pages === 3) {
        const { request: open } = await buildRequest({ merchant });
        await cancelRequest(merchant.ctx, { requestId: open.id });
      }
    } while (after && pages < 20);
    expect(pages).toBe(10);
    expect(seen).toEqual(before);

    // GraphQL, 37 a page, from a list that has grown since.
    const now = await idsInOrder(merchant.merchantId);
    expect(now.length).toBeGreaterThan(1000);
    const viaGraphQL: string[] = [];
    let cursor: string | null = null;
    do {
      const { page, code } = await queried(merchant.apiKey, { first: 37, after: cursor });
      expect(code).toBeUndefined();
      viaGraphQL.push(...page!.events.map((e) => e.id));
      cursor = page!.nextCursor;
      await insertEvents(merchant, [{ type: "REFUND_COMPLETED", requestId: request.id, createdAt: new Date() }]);
    } while (cursor);
    expect(viaGraphQL).toEqual(now);
    expect(new Set(viaGraphQL).size).toBe(viaGraphQL.length);
  });

  it("answers 20 events by default, and a cursor carries any filter on", async () => {
    const merchant = await buildMerchant();
    const base = Date.parse("2026-02-01T00:00:00.000Z");
    await eventsOfOneRequest(merchant, 25, (i) => ({ type: "PAYMENT_COMPLETED", createdAt: new Date(base + i) }));
    const all = await idsInOrder(merchant.merchantId);
    const first = await listed(merchant.apiKey);
    expect(first.events.map((e) => e.eventId)).toEqual(all.slice(0, 20));
    const rest_ = await listed(merchant.apiKey, { after: first.nextCursor!, types: "payment.completed" });
    expect(rest_).toEqual({ events: expect.any(Array), nextCursor: null });
    expect(rest_.events.map((e) => e.eventId)).toEqual(all.slice(20));
  });
});

describe("filters", () => {
  it("narrow by type, createdFrom (inclusive), createdTo (exclusive) and request, alone and together", async () => {
    const merchant = await buildMerchant();
    const [{ request: one }, { request: two }] = await Promise.all([buildRequest({ merchant }), buildRequest({ merchant })]);
    const at = (minute: number) => new Date(Date.parse("2026-03-01T00:00:00.000Z") + minute * 60_000);
    const types = ["PAYMENT_COMPLETED", "REFUND_COMPLETED", "REQUEST_CANCELLED", "REQUEST_EXPIRED"];
    // Minute i: an event of type i % 4, of request one when i is even.
    const ids = await insertEvents(
      merchant,
      Array.from({ length: 12 }, (_, i) => ({ type: types[i % 4]!, requestId: i % 2 === 0 ? one.id : two.id, createdAt: at(i) })),
    );
    const minutes = async (query: Record<string, string>) =>
      (await listed(merchant.apiKey, query)).events.map((e) => ids.indexOf(e.eventId));

    expect(await minutes({})).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(await minutes({ types: "payment.completed" })).toEqual([8, 4, 0]);
    expect(await minutes({ types: " request.cancelled , request.expired,request.cancelled" })).toEqual([11, 10, 7, 6, 3, 2]);
    expect(await minutes({ createdFrom: at(3).toISOString() })).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(await minutes({ createdTo: at(3).toISOString() })).toEqual([2, 1, 0]);
    expect(await minutes({ createdFrom: "2026-03-01T00:04:00+00:00", createdTo: "2026-03-01T01:06:00+01:00" })).toEqual([5, 4]);
    expect(await minutes({ createdFrom: "2026-03-01", createdTo: "2026-03-01T00:00:00.001Z" })).toEqual([0]);
    expect(await minutes({ createdFrom: at(5).toISOString(), createdTo: at(5).toISOString() })).toEqual([]);
    expect(await minutes({ requestId: two.id })).toEqual([11, 9, 7, 5, 3, 1]);
    expect(await minutes({ requestId: randomUUID() })).toEqual([]);
    expect(await minutes({ requestId: "not-an-id-of-ours" })).toEqual([]);
    expect(
      await minutes({
        types: "payment.completed,request.cancelled",
        requestId: one.id,
        createdFrom: at(1).toISOString(),
        createdTo: at(10).toISOString(),
      }),
    ).toEqual([8, 6, 4, 2]);
    // A filtered list pages too.
    const page = await listed(merchant.apiKey, { requestId: one.id, limit: "4" });
    expect(page.events.map((e) => ids.indexOf(e.eventId))).toEqual([10, 8, 6, 4]);
    const next = await listed(merchant.apiKey, { requestId: one.id, limit: "4", after: page.nextCursor! });
    expect(next).toMatchObject({ nextCursor: null });
    expect(next.events.map((e) => ids.indexOf(e.eventId))).toEqual([2, 0]);
    // So does one that ends before createdTo, whose cursor then lies before it.
    const early = await listed(merchant.apiKey, { createdTo: at(6).toISOString(), limit: "4" });
    expect(early.events.map((e) => ids.indexOf(e.eventId))).toEqual([5, 4, 3, 2]);
    const earlier = await listed(merchant.apiKey, { createdTo: at(6).toISOString(), limit: "4", after: early.nextCursor! });
    expect(earlier.events.map((e) => ids.indexOf(e.eventId))).toEqual([1, 0]);
    // Blank optional parameters are not given.
    expect(await minutes({ types: " ", createdFrom: "", createdTo: "  ", requestId: "", limit: "", after: "" })).toHaveLength(12);

    // GraphQL's arguments narrow alike.
    const viaGraphQL = async (variables: object) =>
      (await queried(merchant.apiKey, variables)).page!.events.map((e) => ids.indexOf(e.id));
    expect(await viaGraphQL({ types: ["REFUND_COMPLETED"] })).toEqual([9, 5, 1]);
    expect(await viaGraphQL({ types: [] })).toHaveLength(12);
    expect(await viaGraphQL({ createdFrom: at(9).toISOString() })).toEqual([11, 10, 9]);
    expect(await viaGraphQL({ createdTo: at(1).toISOString(), requestId: one.id })).toEqual([0]);
    expect(
      await viaGraphQL({
        types: ["REQUEST_EXPIRED", "PAYMENT_COMPLETED"],
        requestId: two.id,
        createdFrom: at(3).toISOString(),
        createdTo: at(11).toISOString(),
      }),
    ).toEqual([7, 3]);
    expect(await viaGraphQL({ requestId: "naming-nothing" })).toEqual([]);
  });
});

describe("tenants", () => {
  it("shows each merchant only its own events, refuses another merchant's cursor as BAD_REQUEST and a payer key as FORBIDDEN", async () => {
    const [a, b, payerKey] = await Promise.all([buildMerchant(), buildMerchant(), buildPayerKey()]);
    const request = await eventsOfOneRequest(a, 3, (i) => ({ type: "PAYMENT_COMPLETED", createdAt: new Date(Date.now() - i) }));
    const own = await listed(a.apiKey, { limit: "1" });
    expect(own.events).toHaveLength(1);
    const cursor = own.nextCursor!;

    expect(await listed(b.apiKey)).toEqual({ events: [], nextCursor: null });
    expect(await listed(b.apiKey, { requestId: request.id })).toEqual({ events: [], nextCursor: null });
    expect((await queried(b.apiKey)).page).toEqual({ events: [], nextCursor: null });
    expect((await queried(b.apiKey, { requestId: request.id })).page).toEqual({ events: [], nextCursor: null });

    // A's cursor is one of A's events: B may not page from it, even to an empty page.
    const refused = await rest("events.list", { apiKey: b.apiKey, query: { after: cursor } });
    expect(refused).toMatchObject({ status: 400, body: { statusCode: 400, error: "Bad Request", message: "BAD_REQUEST" } });
    expect((await queried(b.apiKey, { after: cursor })).code).toBe("BAD_REQUEST");
    expect((await listed(a.apiKey, { after: cursor })).events).toHaveLength(2);

    const asPayer = await rest("events.list", { apiKey: payerKey });
    expect(asPayer).toMatchObject({ status: 403, body: { statusCode: 403, error: "Forbidden", message: "FORBIDDEN" } });
    // Whatever it sends.
    expect((await rest("events.list", { apiKey: payerKey, query: { types: "nothing", limit: "0" } })).body.message).toBe(
      "FORBIDDEN",
    );
    expect((await queried(payerKey)).code).toBe("FORBIDDEN");
  });
});

describe("cursors", () => {
  it("are valid only for the events list: another list's, a tampered or a garbled one is BAD_REQUEST", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    await insertEvents(merchant, [
      { type: "REQUEST_EXPIRED", requestId: request.id, createdAt: new Date("2026-01-01T00:00:00Z") },
    ]);
    const page = await listed(merchant.apiKey, { limit: "1" });
    const cursor = page.nextCursor!;
    const [, ms, id] = Buffer.from(cursor, "base64url").toString().split(":") as [string, string, string];

    const connections = await graphqlPost(
      merchant.apiKey,
      "{ paymentRequests(first: 1) { edges { cursor } } transactions(first: 1) { edges { cursor } } }",
    );
    const data = connections.body.data as Record<string, { edges: { cursor: string }[] }>;
    const foreign = [data["paymentRequests"]!.edges[0]!.cursor, data["transactions"]!.edges[0]!.cursor];
    const encode = (text: string) => Buffer.from(text).toString("base64url");
    const tampered = [
      encode(`events:${Number(ms) + 1}:${id}`),
      encode(`events:${ms}:${randomUUID()}`),
      encode(`events:0${ms}:${id}`),
      encode(`events:${ms}:${id.toUpperCase()}`),
      encode(`events:99999999999999:${id}`),
      encode(`events:999999999999999:${id}`),
      encode(`other:${ms}:${id}`),
      `${cursor}=`,
      cursor.slice(0, -1),
      "not a cursor",
      encode(`GPC:S:${page.events[0]!.eventId}`),
    ];
    for (const after of [...foreign, ...tampered]) {
      const { status, body } = await rest("events.list", { apiKey: merchant.apiKey, query: { after } });
      expect({ after, status, code: body.message }).toEqual({ after, status: 400, code: "BAD_REQUEST" });
      expect({ after, code: (await queried(merchant.apiKey, { after })).code }).toEqual({ after, code: "BAD_REQUEST" });
    }
    // And an events cursor is not the connections'.
    const other = await graphqlPost(
      merchant.apiKey,
      "query($after: String) { paymentRequests(first: 1, after: $after) { edges { cursor } } }",
      {
        after: cursor,
      },
    );
    expect(other.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    // The genuine cursor pages on.
    expect((await listed(merchant.apiKey, { after: cursor })).events).toHaveLength(1);
  });
});
