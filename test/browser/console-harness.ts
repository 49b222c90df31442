/**
 * What the console's browser tests share: the app served on a loopback port (its PUBLIC_URL that
 * address), Chromium, and a page signed in to a merchant's console through a sign-in link.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Browser, Page } from "playwright-core";
import { createConsoleLink } from "../../src/domain/console/sessions.js";
import type { ApiConfig } from "../../src/api/config.js";
import { operator, type TestMerchant } from "../factories.js";
import { createTestApp } from "../test-app.js";
import { launchChromium, newPage } from "./chromium.js";

export const PHONE = { width: 390, height: 844 };

export async function startConsole(graphql: Partial<ApiConfig["graphql"]> = {}) {
  let app: ReturnType<typeof createTestApp> | undefined;
  // The app is made once the port is known: PUBLIC_URL is the address the browser uses.
  const server = serve({ fetch: (request) => app!.fetch(request), port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = createTestApp(graphql, { publicUrl: base });
  const browser: Browser = await launchChromium();
  return {
    base,
    /** A page signed in to the merchant's console (axe-core is injected as a script, which the page's policy refuses). */
    async signedIn(merchant: TestMerchant, options: { readOnly?: boolean; phone?: boolean } = {}): Promise<Page> {
      const { token } = await createConsoleLink(operator, { merchantId: merchant.merchantId, readOnly: options.readOnly });
      const page = await newPage(browser, { bypassCSP: true, ...(options.phone && { viewport: PHONE }) });
      await page.goto(`${base}/console/sign-in#${token}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/console`);
      return page;
    },
    async close() {
      await browser.close();
      server.close();
      await app?.dispose();
    },
  };
}
