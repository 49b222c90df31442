import { describe, expect, it, onTestFinished, vi } from "vitest";
import pg from "pg";
import { READS_AT_ONCE } from "../../src/graphql/tenant-read-limit.js";
import { graphqlPost } from "../fixtures.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { until } from "../until.js";

/**
 * One merchant's reads of one table held until released, so that they stay running, and the reads
 * behind them waiting, for as long as the test needs; every other statement as usual. Held where
 * every statement passes, on pg's client (whichever of Prisma and the query builder wrote it), by a
 * spy, not a module mock: the API's test files share their modules.
 */
function hold(merchant: TestMerchant, table: "activity" | "payment_request") {
  const held = { running: 0, most: 0, release: () => {} };
  const gate = new Promise<void>((resolve) => (held.release = resolve));
  const reads = new RegExp(`\\bfrom "(?:public"\\.")?${table}"`, "i");
  // The method itself, to call on each client (a property read, not a method taken off its object).
  const query: (this: pg.Client, ...args: unknown[]) => unknown = Object.getOwnPropertyDescriptor(
    pg.Client.prototype,
    "query",
  )!.value;
  const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { text?: string; values?: unknown[] } | string | undefined;
    const [text, values] =
      typeof config === "string" ? [config, args[1] as unknown[] | undefined] : [config?.text, config?.values];
    if (!reads.test(text ?? "") || !values?.includes(merchant.merchantId)) return query.apply(this, args);
    return (async () => {
      held.running++;
      held.most = Math.max(held.most, held.running);
      await gate;
      held.running--;
      return query.apply(this, args);
    })();
  });
  // A failed test leaves no read held, and the client as it was.
  onTestFinished(() => {
    held.release();
    spy.mockRestore();
  });
  return held;
}

type Body = { data?: Record<string, { edges: unknown[] }> | null; errors?: { extensions?: { code?: string } }[] };

const post = (apiKey: string, query: string, variables: object = {}) => graphqlPost<Body>(apiKey, query, variables);

/** `aliases` pages of n requests, each with its activity trail (one read per request). */
const pagesWithActivities = (aliases: number) =>
  `query($n: Int) { ${Array.from({ length: aliases }, (_, i) => `a${i}: paymentRequests(first: $n) { edges { node { id activities { action } } } }`).join(" ")} }`;

describe("a tenant's limit of reads at once", () => {
  it("runs at most 3 of one merchant's reads at once across all its calls, and another merchant's call does not wait behind them", async () => {
    const flooder = await buildMerchant();
    for (let i = 0; i < 5; i++) await buildRequest({ merchant: flooder });
    const { merchant: other, request } = await buildRequest();
    const held = hold(flooder, "activity");
    // 3 calls × 4 pages × 5 requests: 60 activity reads.
    const flood = Array.from({ length: 3 }, () => post(flooder.apiKey, pagesWithActivities(4), { n: 5 }));
    await until(
      () => held.running,
      (running) => running >= READS_AT_ONCE,
      10_000,
    );

    // Another merchant's read of the same kind runs while the flooder's wait, and no more of those start.
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
    const other = await buildMerchant();
    const pages = hold(flooder, "payment_request");
    // 260 calls of 20 pages each: 3 pages run (held), and the rest wait until 5,000 do.
    const flood = Array.from({ length: 260 }, () => post(flooder.apiKey, pagesWithActivities(20), { n: 1 }));
    const probe = (merchant: TestMerchant) => post(merchant.apiKey, "{ __typename }");
    const refused = await until(
      () => probe(flooder),
      ({ status }) => status === 429,
      20_000,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(refused.retryAfter).toBe("1");
    expect((await probe(other)).status).toBe(200);
    expect(pages.running).toBe(READS_AT_ONCE);

    pages.release();
    const statuses = (await Promise.all(flood)).map(({ status }) => status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5000 / 20);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect((await probe(flooder)).status).toBe(200);
  });
});
