import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { createApp, type App } from "../../src/http/app.js";
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
    const body = await createMany(merchant, 600);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/aliases/i);
    expect(await created(merchant)).toBe(0);
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

describe("field suggestions", () => {
  const production = createApp({ graphql: { introspection: false, graphiql: false } });
  afterAll(() => production.dispose());

  it("are given while introspection is on, and never while it is off", async () => {
    const merchant = await buildMerchant();
    const typo = "{ paymentRequests(first: 1) { edges { node { idd } } } }";
    const open = await post(merchant.apiKey, typo);
    expect(open.errors?.[0]?.message).toContain("Did you mean");
    const closed = await post(merchant.apiKey, typo, {}, production);
    expect(closed.errors?.[0]?.message).toMatch(/Cannot query field "idd"/);
    expect(closed.errors?.[0]?.message).not.toContain("Did you mean");
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
