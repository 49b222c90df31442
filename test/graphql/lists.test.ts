import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { app, gql } from "../fixtures.js";
import { buildMerchant, buildRequest, payer } from "../factories.js";
import { Requests, Transactions } from "../operations/dashboard.js";

describe("dashboard lists", () => {
  it("pages through a merchant's requests newest first, forwards and backwards, and filters them", async () => {
    const merchant = await buildMerchant();
    const base = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 5; i++) {
      const { request } = await buildRequest({ merchant, externalReference: `ref-${i}` });
      await db.paymentRequest.update({ where: { id: request.id }, data: { createdAt: new Date(base + i * 60_000) } });
    }
    const refs = (edges: { node: { externalReference?: string | null } }[]) => edges.map((e) => e.node.externalReference);

    const page1 = (await gql(Requests, { first: 2 }, merchant.apiKey)).data!.paymentRequests;
    expect(refs(page1.edges)).toEqual(["ref-4", "ref-3"]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await gql(Requests, { first: 2, after: page1.pageInfo.endCursor }, merchant.apiKey)).data!.paymentRequests;
    expect(refs(page2.edges)).toEqual(["ref-2", "ref-1"]);
    const back = (await gql(Requests, { last: 2, before: page2.pageInfo.startCursor }, merchant.apiKey)).data!.paymentRequests;
    expect(refs(back.edges)).toEqual(["ref-4", "ref-3"]);

    const byRef = (await gql(Requests, { first: 10, filter: { externalReference: "ref-2" } }, merchant.apiKey)).data!
      .paymentRequests;
    expect(refs(byRef.edges)).toEqual(["ref-2"]);
    const byTime = await gql(
      Requests,
      {
        first: 10,
        filter: { createdFrom: new Date(base + 60_000).toISOString(), createdTo: new Date(base + 180_000).toISOString() },
      },
      merchant.apiKey,
    );
    expect(refs(byTime.data!.paymentRequests.edges)).toEqual(["ref-2", "ref-1"]);
  });

  it("finds requests by text in the description or the external reference, in any case, taking % and _ literally", async () => {
    const merchant = await buildMerchant();
    const made = await Promise.all(
      [
        { description: "Flat white and a Muffin", externalReference: "till-1" },
        { description: "Long black", externalReference: "MUFFIN-box" },
        { description: "100% juice", externalReference: "a_b" },
        { description: "Tea" },
      ].map((input) => buildRequest({ merchant, ...input })),
    );
    const other = await buildMerchant();
    await buildRequest({ merchant: other, description: "muffin elsewhere" });
    const found = async (text: string) =>
      (await gql(Requests, { first: 10, filter: { text } }, merchant.apiKey))
        .data!.paymentRequests.edges.map((e) => e.node.id)
        .sort();
    const ids = (...indexes: number[]) => indexes.map((i) => made[i]!.request.id).sort();
    expect(await found("muffin")).toEqual(ids(0, 1));
    expect(await found("%")).toEqual(ids(2));
    expect(await found("a_b")).toEqual(ids(2));
    expect(await found("_")).toEqual(ids(2));
    expect(await found("  tea ")).toEqual(ids(3));
    expect(await found("nothing like it")).toEqual([]);
    const tooLong = await gql(Requests, { first: 10, filter: { text: "x".repeat(129) } }, merchant.apiKey);
    expect(tooLong.errors?.[0]?.extensions?.["code"]).toBe("BAD_REQUEST");
  });

  it("filters by status as requests read now, by ledger, and lists transactions by type", async () => {
    const merchant = await buildMerchant();
    const { request: paid } = await buildRequest({ merchant, externalReference: "paid" });
    await payRequest(payer, { requestId: paid.id, authorization: "x", ledger: "test.uplink" });
    const { request: overdue } = await buildRequest({ merchant, externalReference: "overdue" });
    await db.paymentRequest.update({ where: { id: overdue.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await buildRequest({ merchant, externalReference: "open" });

    const ofStatus = async (status: ("NEW" | "PAID" | "EXPIRED")[]) =>
      (await gql(Requests, { first: 10, filter: { status } }, merchant.apiKey)).data!.paymentRequests.edges.map(
        (e) => e.node.externalReference,
      );
    expect(await ofStatus(["PAID"])).toEqual(["paid"]);
    expect(await ofStatus(["EXPIRED"])).toEqual(["overdue"]);
    expect(await ofStatus(["NEW"])).toEqual(["open"]);
    const atWallet = await gql(Requests, { first: 10, filter: { ledger: "sandbox.nzd.wallet" } }, merchant.apiKey);
    expect(atWallet.data!.paymentRequests.edges).toHaveLength(3);
    const atNowhere = await gql(Requests, { first: 10, filter: { ledger: "sandbox.aud.wallet" } }, merchant.apiKey);
    expect(atNowhere.data!.paymentRequests.edges).toHaveLength(0);

    const purchases = await gql(Transactions, { filter: { type: "PURCHASE" } }, merchant.apiKey);
    expect(purchases.data!.transactions.edges.map((e) => e.node.transactionType)).toEqual(["PURCHASE"]);
    // Fields that read the transaction's refunds are answered in a list too.
    expect(purchases.errors).toBeUndefined();
    expect(purchases.data!.transactions.edges[0]!.node).toMatchObject({ amount: 1000, refundableAmount: 1000, refunds: [] });
  });

  it("shows each merchant only its own", async () => {
    const [a, b] = await Promise.all([buildMerchant(), buildMerchant()]);
    await buildRequest({ merchant: a });
    expect((await gql(Requests, { first: 10 }, b.apiKey)).data!.paymentRequests.edges).toEqual([]);
    expect((await gql(Requests, { first: 10 }, a.apiKey)).data!.paymentRequests.edges).toHaveLength(1);
  });
});

describe("list cursors", () => {
  it("refuse a forged or garbled cursor as BAD_REQUEST instead of an unexpected error", async () => {
    const merchant = await buildMerchant();
    await buildRequest({ merchant });
    const forged = [
      Buffer.from("GPC:S:not-a-uuid").toString("base64"),
      Buffer.from("GPC:N:5").toString("base64"),
      "not a cursor at all",
    ];
    for (const after of forged) {
      const result = await gql(Requests, { first: 2, after }, merchant.apiKey);
      expect(result.errors?.[0]?.extensions?.["code"], after).toBe("BAD_REQUEST");
    }
    const real = (await gql(Requests, { first: 1 }, merchant.apiKey)).data!.paymentRequests.pageInfo.endCursor;
    expect((await gql(Requests, { first: 1, after: real }, merchant.apiKey)).errors).toBeUndefined();
  });

  it("read a cursor with white space around it as the cursor, and a blank one as not given", async () => {
    const merchant = await buildMerchant();
    const base = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 3; i++) {
      const { request } = await buildRequest({ merchant, externalReference: `ref-${i}` });
      await db.paymentRequest.update({ where: { id: request.id }, data: { createdAt: new Date(base + i * 60_000) } });
    }
    const refs = (page: { edges: { node: { externalReference?: string | null } }[] }) =>
      page.edges.map((e) => e.node.externalReference);
    const top = (await gql(Requests, { first: 1 }, merchant.apiKey)).data!.paymentRequests;
    const cursor = top.pageInfo.endCursor!;
    const after = await gql(Requests, { first: 5, after: ` \t${cursor}\n ` }, merchant.apiKey);
    expect(after.errors).toBeUndefined();
    expect(refs(after.data!.paymentRequests)).toEqual(["ref-1", "ref-0"]);
    const before = await gql(Requests, { last: 5, before: `  ${cursor}` }, merchant.apiKey);
    expect(before.errors).toBeUndefined();
    expect(refs(before.data!.paymentRequests)).toEqual([]);
    const blank = await gql(Requests, { first: 5, after: "   ", before: "" }, merchant.apiKey);
    expect(blank.errors).toBeUndefined();
    expect(refs(blank.data!.paymentRequests)).toEqual(["ref-2", "ref-1", "ref-0"]);
  });
});

describe("list cursors and the list that issued them", () => {
  /** Sends a document as it is (transactions' dashboard document selects no cursors). */
  async function query(apiKey: string, text: string, variables: object = {}) {
    const response = await app.fetch(
      new Request("http://test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify({ query: text, variables }),
      }),
    );
    type Page = { edges: { cursor: string }[] };
    return (await response.json()) as { data?: Record<string, Page>; errors?: { extensions?: { code?: string } }[] };
  }
  const forward = (list: string) => `query($after: String) { ${list}(first: 5, after: $after) { edges { cursor node { id } } } }`;
  const backward = (list: string) =>
    `query($before: String) { ${list}(last: 5, before: $before) { edges { cursor node { id } } } }`;

  it("refuse a cursor of another list, or of another merchant's list, as BAD_REQUEST, forwards and backwards", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    for (const m of [merchant, other]) {
      const { request } = await buildRequest({ merchant: m });
      await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    }
    const cursorOf = async (apiKey: string, list: string) => (await query(apiKey, forward(list))).data![list]!.edges[0]!.cursor;
    const own = {
      requests: await cursorOf(merchant.apiKey, "paymentRequests"),
      transactions: await cursorOf(merchant.apiKey, "transactions"),
    };
    const theirs = {
      requests: await cursorOf(other.apiKey, "paymentRequests"),
      transactions: await cursorOf(other.apiKey, "transactions"),
    };

    const refused = [
      ["paymentRequests", own.transactions],
      ["transactions", own.requests],
      ["paymentRequests", theirs.requests],
      ["transactions", theirs.transactions],
    ] as const;
    for (const [list, cursor] of refused) {
      for (const document of [forward(list), backward(list)]) {
        const answer = await query(merchant.apiKey, document, { after: cursor, before: cursor });
        expect(answer.errors?.[0]?.extensions?.code, `${document} with ${cursor}`).toBe("BAD_REQUEST");
      }
    }
    // The list's own cursors still page.
    expect((await query(merchant.apiKey, forward("paymentRequests"), { after: own.requests })).errors).toBeUndefined();
    expect((await query(merchant.apiKey, backward("transactions"), { before: own.transactions })).errors).toBeUndefined();
  });

  it("let any filter of the same list page from a cursor, without losing the row after it", async () => {
    const merchant = await buildMerchant();
    const base = Date.parse("2026-01-01T00:00:00Z");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { request } = await buildRequest({ merchant, externalReference: `ref-${i}` });
      await db.paymentRequest.update({ where: { id: request.id }, data: { createdAt: new Date(base + i * 60_000) } });
      ids.push(request.id);
    }
    // The cursor's own row does not match the filter it is then used with.
    await payRequest(payer, { requestId: ids[3]!, authorization: "x", ledger: "test.uplink" });
    const refs = (edges: { node: { externalReference?: string | null } }[]) => edges.map((e) => e.node.externalReference);

    const all = (await gql(Requests, { first: 2 }, merchant.apiKey)).data!.paymentRequests;
    expect(refs(all.edges)).toEqual(["ref-4", "ref-3"]);
    const open = await gql(Requests, { first: 10, after: all.pageInfo.endCursor, filter: { status: ["NEW"] } }, merchant.apiKey);
    expect(refs(open.data!.paymentRequests.edges)).toEqual(["ref-2", "ref-1", "ref-0"]);
    const before = await gql(
      Requests,
      { last: 10, before: all.pageInfo.endCursor, filter: { status: ["NEW"] } },
      merchant.apiKey,
    );
    expect(refs(before.data!.paymentRequests.edges)).toEqual(["ref-4"]);
  });
});
