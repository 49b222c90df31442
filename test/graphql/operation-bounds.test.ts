import { afterAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import type { App } from "../../src/http/app.js";
import { createTestApp } from "../test-app.js";
import { app, rest } from "../fixtures.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";

type Body = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

async function post(apiKey: string, query: string, variables: object = {}, through: App = app): Promise<Body> {
  const response = await through.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return (await response.json()) as Body;
}

/** One operation of `n` aliased requestCreate fields. */
const createMany = (merchant: TestMerchant, n: number) =>
  post(
    merchant.apiKey,
    `mutation($i: RequestCreateInput!) { ${Array.from({ length: n }, (_, i) => `a${i}: requestCreate(input: $i) { __typename }`).join(" ")} }`,
    { i: { merchantId: merchant.merchantId, asset: "NZD", amount: 5 } },
  );

const created = (merchant: TestMerchant) => db.paymentRequest.count({ where: { merchantId: merchant.merchantId } });

describe("per-operation bounds on GraphQL", () => {
  it("refuse an operation with more than 20 aliases before running any of it", async () => {
    const merchant = await buildMerchant();
    const body = await createMany(merchant, 50);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/^Aliases limit of 20 exceeded/);
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    expect(await created(merchant)).toBe(0);
  });

  it("read a document up to 1,000 tokens and refuse a longer one as BAD_REQUEST before running any of it", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    // 25 tokens and one per status in the filter's list: 1,000 at most, 1,001 refused.
    const read = (tokens: number) =>
      post(
        merchant.apiKey,
        `{ paymentRequests(first: 1, filter: { status: [${Array(tokens - 25)
          .fill("NEW")
          .join(" ")}] }) { edges { node { id } } } }`,
      );
    expect(await read(1000)).toEqual({ data: { paymentRequests: { edges: [{ node: { id: request.id } }] } } });
    const refused = await read(1001);
    expect(refused.data).toBeUndefined();
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: "A document may hold at most 1000 tokens; this one holds more.",
        extensions: expect.objectContaining({ code: "BAD_REQUEST" }),
      }),
    ]);
    // 600 aliased creates (some 6,000 tokens) are refused the same way, and create nothing.
    const many = await createMany(merchant, 600);
    expect(many.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    expect(many.errors?.[0]?.message).toMatch(/at most 1000 tokens/);
    expect(await created(merchant)).toBe(1);
  });

  it("refuse a document too deep or too costly as BAD_REQUEST, naming the limit", async () => {
    const merchant = await buildMerchant();
    const nested = (depth: number): string => (depth === 0 ? "id" : `purchase { ${nested(depth - 1)} }`);
    const refused = {
      "Query depth limit of 10": `{ transactions(first: 1) { edges { node { ${nested(10)} } } } }`,
      // Four pages of 100 requests, each with three lists read per request: 4 × (1 + 100 × 13) reads.
      "Query Cost limit of 5000": `{ ${["a", "b", "c", "d"]
        .map(
          (alias) =>
            `${alias}: paymentRequests(first: 100) { edges { node { refunds { id } activities { action } webhookEvents { attempts { number } } } } }`,
        )
        .join(" ")} }`,
    };
    for (const [limit, document] of Object.entries(refused)) {
      const body = await post(merchant.apiKey, document);
      expect(body.data, limit).toBeUndefined();
      expect(body.errors?.[0]?.message, limit).toMatch(new RegExp(`^${limit} exceeded`));
      expect(body.errors?.[0]?.extensions?.code, limit).toBe("BAD_REQUEST");
    }
  });

  it("count __typename aliases too, also inside fields and through inline and named fragments", async () => {
    const merchant = await buildMerchant();
    const typenames = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `t${from + i}: __typename`).join(" ");
    const refused = [
      `{ ${typenames(21)} }`,
      `{ ... on Query { ${typenames(21)} } }`,
      `{ paymentRequests(first: 1) { ${typenames(11)} edges { node { ${typenames(10, 11)} } } } }`,
      // One fragment of 11 spread twice: 22.
      `query { ...F ... on Query { ...F } } fragment F on Query { ${typenames(11)} }`,
    ];
    for (const document of refused) {
      const body = await post(merchant.apiKey, document);
      expect(body.data, document).toBeUndefined();
      expect(body.errors?.[0]?.message, document).toMatch(/aliases/i);
      expect(body.errors?.[0]?.extensions?.code, document).toBe("BAD_REQUEST");
    }
    const twenty = await post(merchant.apiKey, `{ ${typenames(20)} }`);
    expect(twenty.errors).toBeUndefined();
  });

  it("refuse more than 10 root mutation fields, and run 10", async () => {
    const merchant = await buildMerchant();
    const eleven = await createMany(merchant, 11);
    expect(eleven.data).toBeUndefined();
    expect(eleven.errors?.[0]).toMatchObject({ extensions: { code: "BAD_REQUEST" } });
    expect(await created(merchant)).toBe(0);

    const ten = await createMany(merchant, 10);
    expect(ten.errors).toBeUndefined();
    expect(await created(merchant)).toBe(10);
  });
});

describe("suggestions", () => {
  const production = createTestApp({ introspection: false, graphiql: false });
  afterAll(() => production.dispose());

  /** Misspellings of every kind of name, each of which graphql-js would answer with "Did you mean" and the right name. */
  const typos: { what: string; document: string; variables?: object; right: string }[] = [
    { what: "a field", document: "{ paymentRequests(first: 1) { edges { node { idd } } } }", right: "id" },
    { what: "an argument", document: "{ webhookEvents(firs: 1) { id } }", right: "first" },
    {
      what: "a type",
      document: "query($s: [WebhookEventStat!]) { webhookEvents(states: $s) { id } }",
      right: "WebhookEventState",
    },
    { what: "an enum value", document: "{ webhookEvents(states: [DELIVERD]) { id } }", right: "DELIVERED" },
    {
      what: "an input field",
      document: 'mutation { requestCreate(input: { merchantId: "x", asset: "NZD", amout: 5 }) { __typename } }',
      right: "amount",
    },
    {
      what: "a field of a union's member",
      document: 'mutation { requestCreate(input: { merchantId: "x", asset: "NZD", amount: 5 }) { id } }',
      right: "PaymentRequest",
    },
    {
      what: "an enum value in a variable",
      document: "query($s: [WebhookEventState!]) { webhookEvents(states: $s) { id } }",
      variables: { s: ["DELIVERD"] },
      right: "DELIVERED",
    },
    {
      what: "an input field in a variable",
      document: "mutation($i: RequestCreateInput!) { requestCreate(input: $i) { __typename } }",
      variables: { i: { merchantId: "x", asset: "NZD", amout: 5 } },
      right: "amount",
    },
  ];

  it("are given while introspection is on", async () => {
    const merchant = await buildMerchant();
    for (const { what, document } of typos.slice(0, 6)) {
      const open = await post(merchant.apiKey, document);
      expect(open.errors?.map((e) => e.message).join(" "), what).toContain("Did you mean");
    }
  });

  it("are never given while introspection is off: no field, argument, type or enum value is named", async () => {
    const merchant = await buildMerchant();
    for (const { what, document, variables, right } of typos) {
      const closed = await post(merchant.apiKey, document, variables, production);
      expect(closed.errors?.length, what).toBeGreaterThan(0);
      for (const { message } of closed.errors!) {
        expect(message, what).not.toMatch(/did you mean|suggestion/i);
        expect(message, what).not.toContain(`"${right}"`);
      }
    }
    const closed = await post(merchant.apiKey, typos[0]!.document, {}, production);
    expect(closed.errors?.[0]?.message).toMatch(/Cannot query field "idd"/);
  });
});

describe("one tenant's flood", () => {
  it("leaves another merchant's calls answered: six concurrent 20-alias operations, no 503 for anyone", async () => {
    const [flooder, neighbour] = await Promise.all([buildMerchant(), buildMerchant()]);
    const { request } = await buildRequest({ merchant: neighbour });
    const flood = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: webhookEvents(first: 1) { id }`).join(" ")} }`;
    const floods = Array.from({ length: 6 }, () => post(flooder.apiKey, flood));
    const neighbourCalls = Array.from({ length: 10 }, () =>
      rest("requests.info", { apiKey: neighbour.apiKey, query: { requestId: request.id } }),
    );
    const [flooded, answered] = await Promise.all([Promise.all(floods), Promise.all(neighbourCalls)]);
    expect(answered.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const body of flooded) expect(body.errors).toBeUndefined();
  });
});
