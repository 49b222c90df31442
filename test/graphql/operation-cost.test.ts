import { describe, expect, it } from "vitest";
import { graphqlPost } from "../fixtures.js";
import { buildLimitedMerchant, buildMerchant, buildRequest, type TestMerchant } from "../factories.js";

type Body = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] };

const post = (apiKey: string, query: string, variables: object = {}) => graphqlPost<Body>(apiKey, query, variables);

/** `aliases` aliases of `paymentRequests(first: $n)`, each node with `node` selected. */
const aliased = (aliases: number, node: string, n = "Int") =>
  `query($n: ${n}) { ${Array.from({ length: aliases }, (_, i) => `a${i}: paymentRequests(first: $n) { edges { node { ${node} } } }`).join(" ")} }`;

/** Issue 35's flood: per node 1 + 1 + (1 + 10 × 1) reads, so 1 + 100 × 13 per alias, 26,020 in all at n = 100. */
const FLOOD_NODE = "id description refunds { id } activities { action } webhookEvents { attempts { number } } paidBy { id }";

const plainRead = (merchant: TestMerchant, id: string) =>
  post(
    merchant.apiKey,
    `query($id: ID) { paymentRequest(id: $id) { id status requestCode denomination { amount asset } payments { ledger amount } paidBy { id } } }`,
    { id },
  );

describe("GraphQL operation cost", () => {
  it("counts a list's size from the operation's variables, and refuses the flood of issue 35 as BAD_REQUEST before it runs, for one call", async () => {
    const merchant = await buildLimitedMerchant(3);
    const { request } = await buildRequest({ merchant });
    for (const [document, variables] of [
      [aliased(20, FLOOD_NODE), { n: 100 }],
      // A variable's default counts as its value.
      [aliased(20, FLOOD_NODE, "Int = 100"), {}],
    ] as const) {
      const refused = await post(merchant.apiKey, document, variables);
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          message: "Query Cost limit of 5000 exceeded, found 26020.",
          extensions: expect.objectContaining({ code: "BAD_REQUEST" }),
        }),
      ]);
    }
    // Each refusal cost one call of the three: one plain read is left, then the key is spent.
    expect((await plainRead(merchant, request.id)).body.data).toMatchObject({ paymentRequest: { id: request.id } });
    const spent = await plainRead(merchant, request.id);
    expect(spent.status).toBe(429);
    expect(spent.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("runs the same operation with a small n, and counts a fragment's lists and `last` alike", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    const small = await post(merchant.apiKey, aliased(20, FLOOD_NODE), { n: 2 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data?.a19).toEqual({
      edges: [{ node: expect.objectContaining({ id: request.id, refunds: [], activities: [{ action: "request.created" }] }) }],
    });
    const throughFragment = await post(
      merchant.apiKey,
      `query($n: Int) { ${Array.from({ length: 4 }, (_, i) => `a${i}: paymentRequests(last: $n) { ...Page }`).join(" ")} }
       fragment Page on QueryPaymentRequestsConnection { edges { node { ...Node } } }
       fragment Node on PaymentRequest { ${FLOOD_NODE} }`,
      { n: 100 },
    );
    expect(throughFragment.body.errors?.[0]?.message).toBe("Query Cost limit of 5000 exceeded, found 5204.");
  });
});

describe("GraphQL rate limit in points", () => {
  it("charges a tenth of an operation's cost: 20 aliases of first: 20 with refunds drain 42 points, not 20 calls", async () => {
    const merchant = await buildLimitedMerchant(60);
    await buildRequest({ merchant });
    // 20 × (1 + 20 × 1) = 420 reads: 42 points.
    const document = aliased(20, "id refunds { id }");
    const first = await post(merchant.apiKey, document, { n: 20 });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const second = await post(merchant.apiKey, document, { n: 20 });
    expect(second.status).toBe(429);
    expect(second.retryAfter).toMatch(/^\d+$/);
    expect(second.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(second.body.data).toBeUndefined();
  });

  it("keeps a plain read, and a dashboard's page of 20 requests, at one point", async () => {
    const merchant = await buildLimitedMerchant(4);
    const { request } = await buildRequest({ merchant });
    const page = `{ paymentRequests(first: 20) { edges { node { id status createdAt denomination { amount asset } } } pageInfo { hasNextPage endCursor } } }`;
    expect((await plainRead(merchant, request.id)).status).toBe(200);
    expect((await plainRead(merchant, request.id)).status).toBe(200);
    expect((await post(merchant.apiKey, page)).status).toBe(200);
    expect((await post(merchant.apiKey, page)).status).toBe(200);
    expect((await plainRead(merchant, request.id)).status).toBe(429);
  });

  it("refuses as BAD_REQUEST, for one call, an operation dearer than the key's whole minute", async () => {
    const merchant = await buildLimitedMerchant(30);
    const refused = await post(merchant.apiKey, aliased(20, "id refunds { id }"), { n: 20 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: "This operation costs 42 points, more than the 30 a minute this key may spend; ask for fewer items.",
        extensions: expect.objectContaining({ code: "BAD_REQUEST" }),
      }),
    ]);
    // One call of 30 was spent: 29 one-point reads remain.
    const { request } = await buildRequest({ merchant });
    for (let i = 0; i < 29; i++) expect((await plainRead(merchant, request.id)).status).toBe(200);
    expect((await plainRead(merchant, request.id)).status).toBe(429);
  });
});
