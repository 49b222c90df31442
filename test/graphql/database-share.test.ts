import { describe, expect, it, onTestFinished, vi } from "vitest";
import { db } from "../../src/db.js";
import { READS_AT_ONCE } from "../../src/graphql/database-share.js";
import { app } from "../fixtures.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { until } from "../until.js";

/**
 * One merchant's activity reads (domain/audit/list.ts) held until released, so that they stay
 * running, and the reads behind them waiting, for as long as the test needs; every other read as
 * usual. A spy on the client, not a module mock: the API's test files share their modules.
 */
const held = { merchantId: "", running: 0, most: 0, gate: Promise.resolve(), release: () => {} };

function hold(merchant: TestMerchant) {
  Object.assign(held, { merchantId: merchant.merchantId, running: 0, most: 0 });
  held.gate = new Promise<void>((resolve) => (held.release = resolve));
  const findMany = db.activity.findMany.bind(db.activity);
  const spy = vi.spyOn(db.activity, "findMany").mockImplementation(((args: { where?: { merchantId?: string } }) => {
    if (args.where?.merchantId !== merchant.merchantId) return findMany(args as never);
    return (async () => {
      held.running++;
      held.most = Math.max(held.most, held.running);
      await held.gate;
      held.running--;
      return [];
    })();
  }) as never);
  // A failed test leaves no read held, and the client as it was.
  onTestFinished(() => {
    held.release();
    spy.mockRestore();
  });
}

type Body = { data?: Record<string, { edges: unknown[] }> | null; errors?: { extensions?: { code?: string } }[] };

async function post(apiKey: string, query: string, variables: object = {}) {
  const response = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Body };
}

/** `aliases` pages of n requests, each with its activity trail (one read per request). */
const pagesWithActivities = (aliases: number) =>
  `query($n: Int) { ${Array.from({ length: aliases }, (_, i) => `a${i}: paymentRequests(first: $n) { edges { node { id activities { action } } } }`).join(" ")} }`;

describe("a tenant's share of the database", () => {
  it("runs at most 3 of one merchant's reads at once across all its calls, and another merchant's call does not wait behind them", async () => {
    const flooder = await buildMerchant();
    for (let i = 0; i < 5; i++) await buildRequest({ merchant: flooder });
    const { merchant: other, request } = await buildRequest();
    hold(flooder);
    // 3 calls × 4 pages × 5 requests: 60 activity reads.
    const flood = Array.from({ length: 3 }, () => post(flooder.apiKey, pagesWithActivities(4), { n: 5 }));
    await until(
      () => held.running,
      (running) => running >= READS_AT_ONCE,
      10_000,
    );
    // Time for any more of them to start, had they not to wait.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.most).toBe(READS_AT_ONCE);

    const answer = await post(other.apiKey, `query($id: ID) { paymentRequest(id: $id) { id activities { action } } }`, {
      id: request.id,
    });
    expect(answer.body).toEqual({ data: { paymentRequest: { id: request.id, activities: [{ action: "request.created" }] } } });
    expect(held.running).toBe(READS_AT_ONCE);

    held.release();
    for (const { status, body } of await Promise.all(flood)) {
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(Object.values(body.data!).map((page) => page.edges.length)).toEqual([5, 5, 5, 5]);
    }
    expect(held.most).toBe(READS_AT_ONCE);
  });

  it("refuses a merchant's next call with 429 while 5000 of its reads wait, and not another merchant's", async () => {
    const flooder = await buildMerchant();
    for (let i = 0; i < 100; i++) await buildRequest({ merchant: flooder });
    const other = await buildMerchant();
    hold(flooder);
    // 3 calls × 20 pages × 100 requests: 6,000 activity reads, of which 3 run and the rest wait.
    const flood = Array.from({ length: 3 }, () => post(flooder.apiKey, pagesWithActivities(20), { n: 100 }));
    const probe = (merchant: TestMerchant) => post(merchant.apiKey, "{ __typename }");
    const refused = await until(
      () => probe(flooder),
      ({ status }) => status === 429,
      20_000,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMIT_EXCEEDED");
    expect((await probe(other)).status).toBe(200);

    held.release();
    for (const { status, body } of await Promise.all(flood)) {
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
    }
    expect((await probe(flooder)).status).toBe(200);
  }, 60_000);
});
