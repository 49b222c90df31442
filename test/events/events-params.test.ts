import { beforeAll, describe, expect, it } from "vitest";
import { payRequest } from "../../src/domain/requests/pay.js";
import { graphqlPost, rest, type RestCall } from "../fixtures.js";
import { buildMerchant, buildRequest, payer, type TestMerchant } from "../factories.js";

let merchant: TestMerchant;

beforeAll(async () => {
  merchant = await buildMerchant();
  const { request } = await buildRequest({ merchant });
  await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
});

const CODE = { types: "INVALID_EVENT_TYPE", requestId: "INVALID_REQUEST_ID" } as Record<string, string>;
const codeOf = (param: string) => CODE[param] ?? "BAD_REQUEST";

/** Text each parameter refuses, from any transport (the query string, a form or a JSON body). */
const BAD_TEXT: Record<string, string[]> = {
  types: [
    "payment.done",
    "PAYMENT_COMPLETED",
    "ping",
    "payment.completed,,refund.completed",
    "payment.completed;refund.completed",
    "\u0000",
  ],
  createdFrom: [
    "yesterday",
    "2026-02-30",
    "2026-01-01T24:00:00Z",
    "2026-01-01T10:00:00",
    "1764000000000",
    "10000-01-01",
    "\u0000",
  ],
  createdTo: ["tomorrow", "2026-13-01", "2026-01-01T10:00:00+25:00", "0000-01-01", "\ud800"],
  requestId: ["r".repeat(129), "\u0000"],
  limit: ["0", "101", "-1", "1.5", "1e2", "0x10", " 5", "five", "99999999999999999999"],
  after: ["not a cursor", "\u0000"],
};

/** JSON values of other types than each parameter takes, in a JSON body only. */
const BAD_JSON: Record<string, unknown[]> = {
  types: [5, 1.5, true, false, ["payment.completed"], { type: "payment.completed" }],
  createdFrom: [1764000000000, true, ["2026-01-01"], { at: "2026-01-01" }],
  createdTo: [0, false, [], {}],
  requestId: [5, 1.5, true, ["x"], {}],
  limit: [0, 101, -5, 1.5, 1e3, true, [10], { n: 10 }],
  after: [5, true, ["x"], {}],
};

const calls = (params: Record<string, string>): [string, RestCall][] => [
  ["GET", { method: "GET", query: params }],
  ["POST form", { method: "POST", form: params }],
  ["POST JSON", { method: "POST", json: params }],
  ["POST query string", { method: "POST", query: params }],
];

describe("events.list refuses each parameter's bad input with its code and 400", () => {
  for (const [param, values] of Object.entries(BAD_TEXT)) {
    it(`${param}: bad text on GET and POST, in the query string, a form and JSON`, async () => {
      for (const value of values) {
        for (const [how, call] of calls({ [param]: value })) {
          const { status, body } = await rest("events.list", { ...call, apiKey: merchant.apiKey });
          expect({ how, value, status, body }).toEqual({
            how,
            value,
            status: 400,
            body: { statusCode: 400, error: "Bad Request", message: codeOf(param), reason: expect.stringContaining(param) },
          });
        }
      }
    });
  }

  for (const [param, values] of Object.entries(BAD_JSON)) {
    it(`${param}: every other JSON type`, async () => {
      for (const value of values) {
        const { status, body } = await rest("events.list", { apiKey: merchant.apiKey, json: { [param]: value } });
        expect({ value, status, code: body.message }).toEqual({ value, status: 400, code: codeOf(param) });
      }
    });
  }

  it("takes each parameter's good values in every form, and null or blank as not given", async () => {
    const good: Record<string, unknown>[] = [
      { types: "payment.completed, refund.completed" },
      { createdFrom: "2026-01-01", createdTo: " 2999-01-01T00:00:00.000+13:00 " },
      { requestId: "anything at all" },
      { limit: "100" },
      { limit: 1 },
      { types: null, createdFrom: null, createdTo: null, requestId: null, limit: null, after: null },
      { types: "", createdFrom: " ", createdTo: "", requestId: "  ", limit: "", after: " " },
    ];
    for (const params of good) {
      const { status, body } = await rest("events.list", { apiKey: merchant.apiKey, json: params });
      expect({ params, status }).toEqual({ params, status: 200 });
      expect(body).toEqual({ events: expect.any(Array), nextCursor: null });
    }
    const strings = { types: "payment.completed", createdFrom: "2026-01-01T00:00:00Z", limit: "5" };
    for (const [how, call] of calls(strings)) {
      const { status, body } = await rest("events.list", { ...call, apiKey: merchant.apiKey });
      expect({ how, status, types: body.events?.map((e: { type: string }) => e.type) }).toEqual({
        how,
        status: 200,
        types: ["payment.completed"],
      });
    }
  });

  it("reads a cursor with white space around it as the cursor, from the query string, a form, JSON and GraphQL", async () => {
    const owner = await buildMerchant();
    for (let n = 0; n < 2; n++) {
      const { request } = await buildRequest({ merchant: owner });
      await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    }
    const { body: first } = await rest("events.list", { apiKey: owner.apiKey, query: { limit: "1" } });
    const { status, body: next } = await rest("events.list", {
      apiKey: owner.apiKey,
      query: { limit: "1", after: first.nextCursor },
    });
    expect({ status, events: next.events.length, nextCursor: next.nextCursor }).toEqual({
      status: 200,
      events: 1,
      nextCursor: null,
    });
    for (const [how, call] of calls({ limit: "1", after: ` \t${first.nextCursor}\n ` })) {
      const { status, body } = await rest("events.list", { ...call, apiKey: owner.apiKey });
      expect({ how, status, body }).toEqual({ how, status: 200, body: next });
    }
    const graphql = await graphqlPost(
      owner.apiKey,
      "query($after: String) { events(first: 1, after: $after) { events { id } nextCursor } }",
      { after: `  ${first.nextCursor}  ` },
    );
    expect(graphql.body).toEqual({ data: { events: { events: [{ id: next.events[0].eventId }], nextCursor: null } } });
  });

  it("ignores parameters it does not know", async () => {
    const { status, body } = await rest("events.list", {
      apiKey: merchant.apiKey,
      json: { type: "nothing", first: 0, cursor: 5 },
    });
    expect(status).toBe(200);
    expect(body.events).toHaveLength(1);
  });

  it("answers 401 KEY_NOT_AUTHORIZED without a key", async () => {
    const { status, body } = await rest("events.list", {});
    expect({ status, code: body.message }).toEqual({ status: 401, code: "KEY_NOT_AUTHORIZED" });
  });
});

describe("the events query refuses bad arguments", () => {
  const EVENTS = `query($first: Int, $after: String, $types: [EventType!], $createdFrom: DateTime, $createdTo: DateTime, $requestId: ID) {
    events(first: $first, after: $after, types: $types, createdFrom: $createdFrom, createdTo: $createdTo, requestId: $requestId) {
      events { id }
      nextCursor
    }
  }`;
  const codeFor = async (variables: object, query = EVENTS) => {
    const { status, body } = await graphqlPost(merchant.apiKey, query, variables);
    return { status, code: body.errors?.[0]?.extensions?.code };
  };

  it("answers each bad argument's code, in variables and in literals", async () => {
    const refusals: [object, string][] = [
      [{ first: 0 }, "BAD_REQUEST"],
      [{ first: -1 }, "BAD_REQUEST"],
      [{ first: 101 }, "BAD_REQUEST"],
      [{ first: "5" }, "BAD_REQUEST"],
      [{ first: 1.5 }, "BAD_REQUEST"],
      [{ after: "not a cursor" }, "BAD_REQUEST"],
      [{ after: 5 }, "BAD_REQUEST"],
      [{ types: ["payment.completed"] }, "INVALID_EVENT_TYPE"],
      [{ types: ["PING"] }, "INVALID_EVENT_TYPE"],
      [{ types: 5 }, "INVALID_EVENT_TYPE"],
      [{ createdFrom: "yesterday" }, "BAD_REQUEST"],
      [{ createdTo: 1764000000000 }, "BAD_REQUEST"],
      [{ requestId: 5 }, "INVALID_REQUEST_ID"],
      [{ requestId: "r".repeat(129) }, "INVALID_REQUEST_ID"],
    ];
    for (const [variables, code] of refusals) {
      expect({ variables, ...(await codeFor(variables)) }).toMatchObject({ variables, code });
    }
    for (const [literal, code] of [
      ["first: 0", "BAD_REQUEST"],
      ["first: 101", "BAD_REQUEST"],
      ['after: "garbage"', "BAD_REQUEST"],
      ["types: [PING]", "INVALID_EVENT_TYPE"],
      ['createdFrom: "2026-02-30"', "BAD_REQUEST"],
    ]) {
      const query = `{ events(${literal}) { nextCursor } }`;
      expect({ literal, ...(await codeFor({}, query)) }).toMatchObject({ literal, code });
    }
    expect(await codeFor({ first: 100, types: [], requestId: "" })).toEqual({ status: 200, code: undefined });
  });

  it("costs its page's events: first (20 by default) times what each event reads", async () => {
    // Each event's request, and what that reads (1 + 13, as test/graphql/operation-cost.test.ts counts it).
    const node =
      "id data request { id description refunds { id } activities { action } webhookEvents { attempts { number } } paidBy { id } }";
    const aliases = (n: number, args: string) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: events${args} { events { ${node} } nextCursor }`).join(" ")} }`;
    // 1 + 100 × 14 per alias.
    const refused = await graphqlPost(merchant.apiKey, aliases(4, "(first: 100)"));
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.message).toBe("Query Cost limit of 5000 exceeded, found 5604.");
    expect((await graphqlPost(merchant.apiKey, aliases(3, "(first: 100)"))).body.errors).toBeUndefined();
    // 1 + 20 × 14 per alias.
    expect((await graphqlPost(merchant.apiKey, aliases(18, ""))).body.errors?.[0]?.message).toBe(
      "Query Cost limit of 5000 exceeded, found 5058.",
    );
  });
});
