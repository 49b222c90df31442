/**
 * Argument classes the docs promise a code for: list page sizes and cursor pairs, DateTime text
 * that is not a calendar instant, and documents whose operation cannot be told.
 */
import { describe, expect, it } from "vitest";
import { app, graphqlPost } from "../fixtures.js";
import { buildEndpoint, buildMerchant } from "../factories.js";

const post = (
  apiKey: string,
  { query, variables, operationName }: { query: string; variables?: object; operationName?: string },
) => graphqlPost(apiKey, query, variables, operationName);
const codesOf = (answer: Awaited<ReturnType<typeof post>>) => answer.body.errors?.map((error) => error.extensions?.code);

describe("GraphQL argument classes", () => {
  it.each(["paymentRequests", "transactions"])(
    "refuses a negative first or last, and pairs it does not page with, in %s as BAD_REQUEST",
    async (list) => {
      const merchant = await buildMerchant();
      for (const args of ["first: -1", "last: -1", "first: -100"])
        expect({
          args,
          codes: codesOf(await post(merchant.apiKey, { query: `{ ${list}(${args}) { edges { cursor } } }` })),
        }).toEqual({
          args,
          codes: ["BAD_REQUEST"],
        });
      const variables = { n: -1 };
      expect(
        codesOf(await post(merchant.apiKey, { query: `query($n: Int) { ${list}(first: $n) { edges { cursor } } }`, variables })),
      ).toEqual(["BAD_REQUEST"]);
    },
  );

  /** Every list that takes a page size: the argument, the list's most, and a document reading it with `args`. */
  const SIZED_LISTS: [string, "first" | "last", number, (args: string) => string][] = [
    ["paymentRequests", "first", 100, (args) => `paymentRequests(${args}) { edges { cursor } }`],
    ["paymentRequests", "last", 100, (args) => `paymentRequests(${args}) { edges { cursor } }`],
    ["transactions", "first", 100, (args) => `transactions(${args}) { edges { cursor } }`],
    ["transactions", "last", 100, (args) => `transactions(${args}) { edges { cursor } }`],
    ["events", "first", 100, (args) => `events(${args}) { nextCursor }`],
    ["webhookEvents", "first", 200, (args) => `webhookEvents(${args}) { id }`],
    ["WebhookEndpoint.deliveries", "first", 200, (args) => `webhookEndpoints { deliveries(${args}) { id } }`],
  ];

  it.each(SIZED_LISTS)(
    "takes %s's %s from 1 to %i, and refuses anything else as BAD_REQUEST, never clamping it",
    async (_list, size, max, read) => {
      const merchant = await buildMerchant();
      await buildEndpoint(merchant);
      const literal = (n: number) => post(merchant.apiKey, { query: `{ ${read(`${size}: ${n}`)} }` });
      const variable = (n: number) =>
        post(merchant.apiKey, { query: `query($n: Int) { ${read(`${size}: $n`)} }`, variables: { n } });
      for (const n of [-100, -1, 0, max + 1, 2 ** 31 - 1])
        for (const [how, answer] of [
          ["literal", await literal(n)],
          ["variable", await variable(n)],
        ] as const)
          expect({ n, how, codes: codesOf(answer), message: answer.body.errors?.[0]?.message }).toEqual({
            n,
            how,
            codes: ["BAD_REQUEST"],
            message: expect.stringMatching(new RegExp(`\\b${size}\\b.*must be a whole number from 1 to ${max}\\.$`)),
          });
      for (const n of [1, max]) {
        expect({ n, errors: (await literal(n)).body.errors }).toEqual({ n, errors: undefined });
        expect({ n, errors: (await variable(n)).body.errors }).toEqual({ n, errors: undefined });
      }
    },
  );

  it("refuses after with before or last, and before with first, as BAD_REQUEST", async () => {
    const merchant = await buildMerchant();
    // A cursor this list issued: one of the merchant's own requests.
    const created = await app.fetch(
      new Request("http://test/api/requests.create", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
        body: JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 300 }),
      }),
    );
    expect(created.status).toBe(200);
    const page = await post(merchant.apiKey, { query: "{ paymentRequests(first: 1) { edges { cursor } } }" });
    const cursor = (page.body.data as { paymentRequests: { edges: { cursor: string }[] } }).paymentRequests.edges[0]!.cursor;
    for (const args of [
      `after: "${cursor}", before: "${cursor}"`,
      `after: "${cursor}", last: 1`,
      `before: "${cursor}", first: 1`,
    ])
      expect({
        args,
        codes: codesOf(await post(merchant.apiKey, { query: `{ paymentRequests(${args}) { edges { cursor } } }` })),
      }).toEqual({
        args,
        codes: ["BAD_REQUEST"],
      });
  });

  it("refuses a DateTime that is not in the calendar or not ISO 8601, never rolling it over", async () => {
    const merchant = await buildMerchant();
    const query = "query($f: RequestFilter) { paymentRequests(first: 1, filter: $f) { edges { cursor } } }";
    for (const createdFrom of [
      "2026-02-30T00:00:00Z",
      "2026-02-29",
      "2026-13-01T00:00:00Z",
      "2026-04-31T12:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T23:60:00Z",
      "2026-01-01T23:59:60Z",
      "2026-01-01T00:00:00+25:00",
      "2026-01-01 00:00:00Z",
      "1 January 2026",
      "2026-01-01T00:00:00",
      "10000-01-01T00:00:00Z",
      "0000-12-31T00:00:00Z",
    ]) {
      const answer = await post(merchant.apiKey, { query, variables: { f: { createdFrom } } });
      expect({ createdFrom, status: answer.status, codes: codesOf(answer) }).toEqual({
        createdFrom,
        status: 400,
        codes: ["BAD_REQUEST"],
      });
    }
    for (const createdFrom of ["2028-02-29T00:00:00Z", "2026-02-28", "2026-12-31T23:59:59.999Z", "2026-06-01T12:00:00+12:45"]) {
      const answer = await post(merchant.apiKey, { query, variables: { f: { createdFrom } } });
      expect({ createdFrom, errors: answer.body.errors }).toEqual({ createdFrom, errors: undefined });
    }
  });

  it("answers a document whose operation cannot be told with OPERATION_RESOLUTION_FAILURE (HTTP 400)", async () => {
    const merchant = await buildMerchant();
    for (const body of [
      { query: "query { __typename } query { __typename }" },
      { query: "query A { __typename } query B { __typename }" },
      { query: "query A { __typename }", operationName: "B" },
    ]) {
      const answer = await post(merchant.apiKey, body);
      expect({ body, status: answer.status, codes: codesOf(answer) }).toEqual({
        body,
        status: 400,
        codes: ["OPERATION_RESOLUTION_FAILURE"],
      });
    }
  });
});
