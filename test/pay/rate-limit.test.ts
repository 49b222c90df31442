/**
 * What the pay page charges to the caller's client address: one call for each page, status read,
 * QR code, stream and payment that gets past the form's size and origin checks; nothing for its
 * assets, for a route it does not have, or for a payment refused before anything is read. A refused
 * charge is the contract's 429 with Retry-After, under the page's own headers.
 */
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../../src/domain/errors.js";
import { errorRenderer } from "../../src/http/middleware.js";
import { mountPayPage } from "../../src/http/pay/routes.js";
import type { RequestChangeFeed } from "../../src/pubsub/request-changes.js";
import { pageLinks } from "../../src/transport/links.js";
import type { Meter, RateLimiter } from "../../src/transport/rate-limit.js";
import { logger } from "../api-parts.js";
import { buildRequest } from "../factories.js";

const PUBLIC_URL = "https://pay.example";

/** A limiter that notes every charge and refuses them all while `refusing`. */
function notingLimiter() {
  const charges: { meter: Meter; calls: number }[] = [];
  const limiter = {
    refusing: false,
    charges,
    async charge(meter: Meter, calls: number) {
      charges.push({ meter, calls });
      if (limiter.refusing) throw new RateLimitedError(7);
    },
    limitOf: () => 100,
    isSpent: () => false,
  };
  return limiter satisfies RateLimiter;
}

/** A feed without changes: no test here opens a stream on a request. */
const noChanges = {
  changes: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => {}) }) }),
  close: () => {},
} as unknown as RequestChangeFeed;

let code: string;
let shortCode: string;

beforeAll(async () => {
  ({ requestCode: code, shortCode } = (await buildRequest({ amount: 300 })).request);
});

function payPage() {
  const limiter = notingLimiter();
  const app = new Hono();
  app.onError(errorRenderer(logger));
  mountPayPage(app, { limiter, changes: noChanges, links: pageLinks(PUBLIC_URL), logger, publicUrl: PUBLIC_URL });
  const call = (path: string, init?: RequestInit) =>
    app.request(`http://test${path.replace("CODE", code).replace("SHORT", shortCode)}`, init);
  return { limiter, call };
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});

/**
 * Each call of the page (its path, with `CODE` and `SHORT` for the request's codes), whether it is
 * charged, and how it is answered when it is not refused.
 */
const calls: [string, string, RequestInit | undefined, boolean, number][] = [
  ["the code form", "/pay", undefined, true, 200],
  ["a typed code", "/pay?code=SHORT", undefined, true, 303],
  ["a typed code that names nothing", "/pay?code=nothing", undefined, true, 404],
  ["a request's page", "/pay/CODE", undefined, true, 200],
  ["a request's page by its short code", "/pay/SHORT", undefined, true, 303],
  ["a page's HEAD", "/pay/CODE", { method: "HEAD" }, true, 200],
  ["an unknown request's page", "/pay/nothing", undefined, true, 404],
  ["the status", "/pay/CODE/status", undefined, true, 200],
  ["the QR code", "/pay/CODE/qr.svg", undefined, true, 200],
  ["an unknown request's stream", "/pay/nothing/events", undefined, true, 404],
  ["a payment", "/pay/CODE", form({ wallet: "w" }, { accept: "application/json" }), true, 403],
  ["a payment from another site", "/pay/CODE", form({}, { "sec-fetch-site": "cross-site" }), false, 303],
  [
    "a payment from another origin",
    "/pay/CODE",
    form({}, { origin: "https://elsewhere.example", accept: "application/json" }),
    false,
    403,
  ],
  ["a payment form too large", "/pay/CODE", form({ wallet: "w".repeat(5000) }, { accept: "application/json" }), false, 413],
  ["an asset", "/pay/assets/nothing.css", undefined, false, 404],
  ["an asset named as a page's QR code", "/pay/assets/qr.svg", undefined, false, 404],
  ["a path the page does not have", "/pay/CODE/nothing", undefined, false, 404],
  ["a method the page does not have", "/pay/CODE", { method: "DELETE" }, false, 404],
  ["a post to the code form", "/pay", form({}), false, 404],
];

describe("the pay page's rate limit", () => {
  it.each(calls)("%s", async (_, path, init, charged, status) => {
    const { limiter, call } = payPage();
    const response = await call(path, init);
    expect(response.status).toBe(status);
    expect(limiter.charges).toEqual(charged ? [{ meter: { bucket: "page:local", perMinute: null }, calls: 1 }] : []);
  });

  it.each(calls.filter(([, , , charged]) => charged))(
    "%s: refused with 429, Retry-After and the page's headers",
    async (_, path, init) => {
      const { limiter, call } = payPage();
      limiter.refusing = true;
      const response = await call(path, init);
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("7");
      expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      if (init?.method !== "HEAD")
        expect(await response.json()).toEqual({
          statusCode: 429,
          error: "Too Many Requests",
          message: "RATE_LIMIT_EXCEEDED",
          reason: "Too many requests; retry in 7 s.",
        });
      expect(limiter.charges).toHaveLength(1);
    },
  );
});
