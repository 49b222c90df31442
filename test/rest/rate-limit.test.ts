import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { app, rest } from "../fixtures.js";
import { buildLimitedMerchant, buildMerchant } from "../factories.js";
import { testEnv } from "../../vitest.config.js";

describe("rate limits", () => {
  it("answers 429 RATE_LIMIT_EXCEEDED with Retry-After once a key used up its minute, and changes nothing", async () => {
    const merchant = await buildLimitedMerchant(3);
    const create = () =>
      rest("requests.create", { apiKey: merchant.apiKey, json: { merchantId: merchant.merchantId, asset: "NZD", amount: 5 } });
    expect([(await create()).status, (await create()).status, (await create()).status]).toEqual([200, 200, 200]);
    const limited = await create();
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: "Too Many Requests", message: "RATE_LIMIT_EXCEEDED" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(3);
  });

  it("counts GraphQL calls too, and each key separately", async () => {
    const merchant = await buildLimitedMerchant(1);
    const other = await buildMerchant();
    const query = (apiKey: string) =>
      app.fetch(
        new Request("http://test/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": apiKey },
          body: JSON.stringify({ query: `{ paymentRequest(id: "${crypto.randomUUID()}") { id } }` }),
        }),
      );
    await query(merchant.apiKey);
    const response = await query(merchant.apiKey);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const limited = (await response.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
    expect(limited.errors[0]!.extensions.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(limited.data).toBeUndefined();
    const fine = (await (await query(other.apiKey)).json()) as { errors: { extensions: { code: string } }[] };
    expect(fine.errors[0]!.extensions.code).toBe("REQUEST_NOT_FOUND");
  });
});

describe("rate limits on GraphQL", () => {
  it("charge one call per root field, aliases included, and refuse the whole operation past the limit", async () => {
    const merchant = await buildLimitedMerchant(5);
    const create = (aliases: number) =>
      app.fetch(
        new Request("http://test/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
          body: JSON.stringify({
            query: `mutation { ${Array.from(
              { length: aliases },
              (_, i) =>
                `a${i}: requestCreate(input: { merchantId: "${merchant.merchantId}", asset: "NZD", amount: 5 }) { ... on PaymentRequest { id } }`,
            ).join(" ")} }`,
          }),
        }),
      );
    expect((await create(3)).status).toBe(200);
    const refused = await create(3); // 6 calls > 5
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } })).toBe(3);
  });
});

describe("a key past its limit", () => {
  it("is refused for the rest of its minute without asking the database or Redis again", async () => {
    const merchant = await buildLimitedMerchant(1);
    const info = () => rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: crypto.randomUUID() } });
    expect((await info()).status).toBe(404);
    expect((await info()).status).toBe(429);
    // Were the counter or the key asked again, this call would pass: the counter is gone, the limit raised.
    const redis = new Redis(testEnv.REDIS_URL);
    try {
      await redis.del(`payreq:rate:{key:${keyPrefixOf(merchant.apiKey)}}:${Math.floor(Date.now() / 60_000)}`);
    } finally {
      await redis.quit();
    }
    await db.apiKey.update({ where: { prefix: keyPrefixOf(merchant.apiKey) }, data: { rateLimitPerMinute: 1000 } });
    const refused = await info();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("rate limits on GraphQL documents refused before they run", () => {
  const send = (apiKey: string, body: string) =>
    app.fetch(
      new Request("http://test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body,
      }),
    );
  const document = (query: string) => JSON.stringify({ query });
  const refused = {
    unparsable: document("{ paymentRequests("),
    unknownField: document("{ nothingHere }"),
    tooDeep: document(`{ transaction(id: "x") { ${"request { paidBy { ".repeat(6)} id ${"} } ".repeat(6)} } }`),
    // 4 × (1 + 100 × 13) reads: past 5000.
    tooCostly: document(
      `{ ${Array.from(
        { length: 4 },
        (_, i) =>
          `a${i}: paymentRequests(first: 100) { edges { node { refunds { id } activities { action } webhookEvents { attempts { number } } } } }`,
      ).join(" ")} }`,
    ),
    tooManyAliases: document(`{ ${Array.from({ length: 21 }, (_, i) => `t${i}: __typename`).join(" ")} }`),
    tooManyMutations: document(
      `mutation { ${Array.from({ length: 11 }, (_, i) => `a${i}: requestCancel(input: { requestId: "x" }) { __typename }`).join(" ")} }`,
    ),
    notJson: "{ not json",
  };

  it("charge each refused document one call, and past the limit answer 429 before reading the document", async () => {
    const documents = Object.values(refused);
    const merchant = await buildLimitedMerchant(documents.length);
    for (const body of documents) {
      const response = await send(merchant.apiKey, body);
      expect(response.status, body).not.toBe(429);
      const answer = (await response.json()) as { data?: unknown; errors?: unknown[] };
      expect(answer.data ?? null, body).toBeNull();
      expect(answer.errors?.length, body).toBeGreaterThan(0);
    }
    for (const body of documents) {
      const response = await send(merchant.apiKey, body);
      expect(response.status, body).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await response.json()).toEqual({
        errors: [{ message: expect.any(String), extensions: { code: "RATE_LIMIT_EXCEEDED" } }],
      });
    }
  });

  it("do not charge twice a document that runs: one call per root field in all", async () => {
    const merchant = await buildLimitedMerchant(3);
    const lookUp = (fields: number) =>
      document(`{ ${Array.from({ length: fields }, (_, i) => `a${i}: webhookEvents(first: 1) { id }`).join(" ")} }`);
    const three = (await (await send(merchant.apiKey, lookUp(3))).json()) as { errors?: unknown };
    expect(three.errors).toBeUndefined();
    expect((await send(merchant.apiKey, lookUp(1))).status).toBe(429);

    const another = await buildLimitedMerchant(3);
    expect((await send(another.apiKey, document("{ __typename }"))).status).toBe(200);
    expect((await send(another.apiKey, lookUp(2))).status).toBe(200);
    expect((await send(another.apiKey, document("{ __typename }"))).status).toBe(429);
  });
});

describe("rate limits on QR codes", () => {
  it("answer 429 with Retry-After like every other route", async () => {
    const merchant = await buildLimitedMerchant(1);
    const qr = () =>
      app.fetch(new Request(`http://test/requests/${crypto.randomUUID()}/qr.svg`, { headers: { "x-api-key": merchant.apiKey } }));
    expect((await qr()).status).toBe(404);
    const limited = await qr();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("rate limits without a valid key", () => {
  it("throttle calls per client address, on a real socket", async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as AddressInfo).port;
    const from = (
      address: string,
      path = "/api/requests.info?requestId=x",
      headers: Record<string, string> = { "x-api-key": "mk_guess" },
    ) =>
      new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
        const call = request(
          {
            host: "127.0.0.1",
            port,
            path,
            localAddress: address,
            headers,
          },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode!, retryAfter: response.headers["retry-after"] });
          },
        );
        call.on("error", reject).end();
      });
    // Two loopback addresses of this test's own; the first has used up its minute (and the next).
    const octet = () => 2 + Math.floor(Math.random() * 250);
    const [guesser, other] = [`127.${octet()}.${octet()}.${octet()}`, `127.${octet()}.${octet()}.${octet()}`];
    const redis = new Redis(testEnv.REDIS_URL);
    try {
      const window = Math.floor(Date.now() / 60_000);
      for (const w of [window, window + 1]) await redis.set(`payreq:rate:{addr:${guesser}}:${w}`, 1_000_000, "EX", 180);
      const throttled = await from(guesser);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await from(other)).status).toBe(401);
      // GraphQL documents from that address, with no key or an unknown one, also the refused ones.
      const graphql = `/graphql?query=${encodeURIComponent("{ paymentRequests(")}`;
      for (const headers of [{}, { "x-api-key": "mk_guess" }] as Record<string, string>[]) {
        expect((await from(guesser, graphql, headers)).status).toBe(429);
        expect((await from(other, graphql, headers)).status).not.toBe(429);
      }
    } finally {
      await redis.quit();
      server.close();
    }
  });
});
