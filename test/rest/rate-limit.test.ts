import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { app, rest } from "../fixtures.js";
import { buildMerchant } from "../factories.js";
import { testEnv } from "../../vitest.config.js";

async function limitedMerchant(perMinute: number) {
  const merchant = await buildMerchant();
  await db.apiKey.update({ where: { prefix: keyPrefixOf(merchant.apiKey) }, data: { rateLimitPerMinute: perMinute } });
  return merchant;
}

describe("rate limits", () => {
  it("answers 429 RATE_LIMIT_EXCEEDED with Retry-After once a key used up its minute, and changes nothing", async () => {
    const merchant = await limitedMerchant(3);
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
    const merchant = await limitedMerchant(1);
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
    const merchant = await limitedMerchant(5);
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

describe("rate limits on QR codes", () => {
  it("answer 429 with Retry-After like every other route", async () => {
    const merchant = await limitedMerchant(1);
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
    const from = (address: string) =>
      new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
        const call = request(
          {
            host: "127.0.0.1",
            port,
            path: "/api/requests.info?requestId=x",
            localAddress: address,
            headers: { "x-api-key": "mk_guess" },
          },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode!, retryAfter: response.headers["retry-after"] as string | undefined });
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
      for (const w of [window, window + 1]) await redis.set(`payreq:rate:addr:${guesser}:${w}`, 1_000_000, "EX", 180);
      const throttled = await from(guesser);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await from(other)).status).toBe(401);
    } finally {
      await redis.quit();
      server.close();
    }
  });
});
