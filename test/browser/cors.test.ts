/**
 * CORS on /graphql as a browser enforces it: a dashboard page on another origin may read
 * /graphql's answers only when CORS_ORIGINS lists that origin; with CORS_ORIGINS empty (the
 * default) no origin may, and an unlisted one may not either.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMerchant } from "../factories.js";
import { createTestApp } from "../test-app.js";
import { launchChromium, newPage } from "./chromium.js";

let browser: Browser;
let dashboard: Server;
let dashboardOrigin: string;
const services: { server: ServerType; app: ReturnType<typeof createTestApp> }[] = [];

/** The service on a loopback port of its own, allowing these origins. */
async function serviceAllowing(origins: string[]): Promise<string> {
  const app = createTestApp({}, { corsOrigins: origins });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  services.push({ server, app });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  // The merchant's dashboard: an empty page on another loopback origin.
  dashboard = createServer((_request, response) => {
    response.setHeader("content-type", "text/html");
    response.end("<!doctype html><title>dashboard</title>");
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => dashboard.once("listening", resolve));
  dashboardOrigin = `http://127.0.0.1:${(dashboard.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  dashboard?.close();
  for (const { server, app } of services) {
    server.close();
    await app.dispose();
  }
});

/** What the dashboard page's fetch of /graphql gets: the merchant's name, or the browser's refusal. */
async function dashboardReads(service: string, apiKey: string, merchantId: string): Promise<string> {
  const page = await newPage(browser);
  try {
    await page.goto(dashboardOrigin);
    return await page.evaluate(
      async ({ service, apiKey, merchantId }) => {
        try {
          const answer = await fetch(`${service}/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": apiKey },
            body: JSON.stringify({ query: `{ merchantConfiguration(merchantId: "${merchantId}") { name } }` }),
          });
          const body = (await answer.json()) as { data: { merchantConfiguration: { name: string } } };
          return body.data.merchantConfiguration.name;
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      },
      { service, apiKey, merchantId },
    );
  } finally {
    await page.close();
  }
}

describe("CORS on /graphql in Chromium", () => {
  it("lets a listed origin read /graphql, and no origin when CORS_ORIGINS is empty or does not list it", async () => {
    const merchant = await buildMerchant();
    const [listing, empty, other] = await Promise.all([
      serviceAllowing([dashboardOrigin]),
      serviceAllowing([]),
      serviceAllowing(["https://dashboard.example", "https://admin.example"]),
    ]);
    expect(await dashboardReads(listing, merchant.apiKey, merchant.merchantId)).toBe(merchant.name);
    expect(await dashboardReads(empty, merchant.apiKey, merchant.merchantId)).toBe("refused: TypeError");
    expect(await dashboardReads(other, merchant.apiKey, merchant.merchantId)).toBe("refused: TypeError");
  });
});
