import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { launchChromium, newPage } from "./chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test-app.js";
import { buildMerchant } from "../factories.js";

const app = createTestApp();
let server: ServerType;
let base: string;
let browser: Browser;

beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  await app.dispose();
});

describe("GraphiQL at /graphql", () => {
  it("loads with every non-loopback request blocked and runs a query with a merchant key", async () => {
    const merchant = await buildMerchant();
    const page = await newPage(browser);
    const leaving: string[] = [];
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === "127.0.0.1") return route.continue();
      leaving.push(url.href);
      return route.abort();
    });

    await page.goto(`${base}/graphql`);
    const queryEditor = page.locator(".graphiql-query-editor .monaco-editor").first();
    await queryEditor.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(`{ merchantConfiguration(merchantId: "${merchant.merchantId}") { merchantId name } }`);

    // The header pane is there, pre-filled with an empty X-Api-Key.
    await page.getByText("Headers", { exact: true }).click();
    const headerEditor = page.locator(".graphiql-editor-tool .monaco-editor").last();
    await expect.poll(() => headerEditor.innerText()).toContain("X-Api-Key");
    await headerEditor.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(JSON.stringify({ "X-Api-Key": merchant.apiKey }));

    await page.locator(".graphiql-execute-button").click();
    const response = page.locator(".graphiql-response");
    await response.getByText(merchant.merchantId).waitFor();
    // The editor renders spaces as no-break spaces.
    const shown = (await response.innerText()).replace(/\u00a0/g, " ");
    expect(JSON.parse(shown)).toEqual({
      data: { merchantConfiguration: { merchantId: merchant.merchantId, name: merchant.name } },
    });
    expect(leaving).toEqual([]);
  });
});
