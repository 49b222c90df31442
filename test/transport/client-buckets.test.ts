import { randomInt } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { openRedis } from "../../src/transport/redis.js";
import { config, logger } from "../api-parts.js";
import { buildMerchant } from "../factories.js";

/**
 * Per-address limits count an IPv6 client by its /64 (src/transport/client-address.ts
 * clientBucketOf). The clients are told apart by X-Forwarded-For from a trusted proxy on the
 * loopback address; their addresses are documentation-range literals (2001:db8::/32) and are
 * never contacted. Each run takes /64s of its own, since the test Redis is shared.
 */
const PER_MINUTE = 3;
const redis = openRedis(config.redis, logger);
const app = createApp({
  config: {
    ...config,
    server: { ...config.server, trustedProxies: ["127.0.0.1"] },
    rateLimit: { perMinute: PER_MINUTE },
    subscriptions: { perKey: 5, perAddress: 1 },
  },
  logger,
  redis,
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
let base = "";
beforeAll(async () => {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.dispose();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await redis.quit();
});

const group = () => randomInt(1, 0xffff).toString(16);
/** A /64 of this run's own, as `2001:db8:x:y:` to which an interface identifier is appended. */
const ownSlash64 = () => `2001:db8:${group()}:${group()}:`;

const from = (address: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as object), "x-forwarded-for": address } });

/**
 * Calls `call` from two addresses of one /64 in turn, PER_MINUTE + 1 times in all, within one
 * rate-limit window (a window that turned meanwhile is tried again with a new /64). Returns the
 * statuses, and the status of one more call from another /64.
 */
async function sharedMinute(send: (address: string) => Promise<Response>) {
  const call = async (address: string) => {
    const response = await send(address);
    await response.arrayBuffer();
    return response;
  };
  for (;;) {
    const window = Math.floor(Date.now() / 60_000);
    const [net, otherNet] = [ownSlash64(), ownSlash64()];
    const statuses: number[] = [];
    for (let i = 0; i <= PER_MINUTE; i++) statuses.push((await call(`${net}${i % 2 ? "b" : "a"}:${group()}::1`)).status);
    const other = (await call(`${otherNet}:1`)).status;
    if (Math.floor(Date.now() / 60_000) === window) return { statuses, other };
  }
}

describe("per-address limits count an IPv6 client by its /64", () => {
  it("calls without a valid key: two addresses of one /64 share one minute's calls", async () => {
    const { statuses, other } = await sharedMinute((address) =>
      from(address, "/api/requests.info?requestId=x", { headers: { "x-api-key": "mk_guess" } }),
    );
    expect(statuses).toEqual([...Array<number>(PER_MINUTE).fill(401), 429]);
    expect(other).toBe(401);
  });

  it("the pay page's short-code lookups: two addresses of one /64 share one minute's pages", async () => {
    const { statuses, other } = await sharedMinute((address) => from(address, "/pay/PR-222-222"));
    expect(statuses).toEqual([...Array<number>(PER_MINUTE).fill(404), 429]);
    expect(other).toBe(404);
  });

  it("subscription streams: two addresses of one /64 share one address's streams", async () => {
    const [first, second, third] = await Promise.all([buildMerchant(), buildMerchant(), buildMerchant()]);
    const net = ownSlash64();
    const hangUp = new AbortController();
    const subscribe = (address: string, apiKey: string) =>
      from(address, "/graphql", {
        method: "POST",
        signal: hangUp.signal,
        headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": apiKey },
        body: JSON.stringify({ query: "subscription { paymentRequestChanged { id } }" }),
      });
    try {
      expect((await subscribe(`${net}:a`, first.apiKey)).status).toBe(200);
      const refused = await subscribe(`${net}1:2:3:4`, second.apiKey);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain("This client address already has 1 open subscriptions");
      expect((await subscribe(`${ownSlash64()}:a`, third.apiKey)).status).toBe(200);
    } finally {
      hangUp.abort();
    }
  });
});
