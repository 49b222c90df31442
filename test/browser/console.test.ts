/**
 * The merchant console's sign-in in Chromium: a link opens a session once, the console reads the
 * merchant's requests with its session, reload keeps it, sign-out ends it; a page on another origin
 * posting to /graphql with the session's cookie changes nothing; axe-core finds nothing.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsoleLink } from "../../src/domain/console/sessions.js";
import { buildMerchant, buildRequest, operator } from "../factories.js";
import { db } from "../prisma.js";
import { createTestApp } from "../test-app.js";
import { axeViolations, launchChromium, newPage, screenshot } from "./chromium.js";

let browser: Browser;
let server: ServerType;
let app: ReturnType<typeof createTestApp>;
let base: string;
let elsewhere: Server;
let elsewhereOrigin: string;

beforeAll(async () => {
  // The app is made once the port is known: PUBLIC_URL is the address the browser uses.
  server = serve({ fetch: (request) => app.fetch(request), port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = createTestApp({}, { publicUrl: base });
  // Another site on the same machine, which knows the service's address.
  elsewhere = createServer((_request, response) => {
    response.setHeader("content-type", "text/html");
    response.end("<!doctype html><title>elsewhere</title>");
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => elsewhere.once("listening", resolve));
  elsewhereOrigin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  elsewhere?.close();
  server?.close();
  await app?.dispose();
});

const linkFor = async (merchantId: string, input: { readOnly?: boolean; label?: string } = {}) => {
  const { token } = await createConsoleLink(operator, { merchantId, ...input });
  return `${base}/console/sign-in#${token}`;
};

describe("the merchant console in Chromium", () => {
  it("signs in with a link once, shows the merchant's requests, keeps the session on reload, and signs out", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const [{ request: mine }, { request: theirs }] = await Promise.all([
      buildRequest({ merchant }),
      buildRequest({ merchant: other }),
    ]);
    const link = await linkFor(merchant.merchantId, { label: "front desk" });
    // axe-core is injected as a script, which the page's own policy (rightly) refuses.
    const page = await newPage(browser, { bypassCSP: true });
    await page.goto(link);
    // The link says whom it signs in as, and opens only when the reader confirms: a link someone
    // else sent signs no one in to their merchant unasked.
    await expect
      .poll(() => page.locator("main p").first().textContent())
      .toBe(`Sign in to ${merchant.name}'s console as front desk?`);
    expect(await db.consoleLink.count({ where: { merchantId: merchant.merchantId, usedAt: { not: null } } })).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sign-in");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/console`);
    await expect.poll(() => page.locator("#who").textContent()).toContain(merchant.name);
    await expect.poll(() => page.locator("main table.requests").textContent()).toContain(mine.shortCode);
    expect(await page.locator("main").textContent()).not.toContain(theirs.shortCode);
    expect(await axeViolations(page)).toEqual([]);
    // The token is gone from the address bar and the history.
    expect(page.url()).not.toContain("#");

    await page.reload();
    await expect.poll(() => page.locator("main table.requests").textContent()).toContain(mine.shortCode);

    // The same link in another browser opens nothing.
    const second = await newPage(browser, { bypassCSP: true });
    await second.goto(link);
    await expect.poll(() => second.getByRole("alert").textContent()).toMatch(/used or has expired/);
    expect(await axeViolations(second)).toEqual([]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.locator("main h2").textContent()).toBe("You are not signed in");
    await screenshot(page, "signed-out");
    expect(await axeViolations(page)).toEqual([]);
    expect(await db.consoleSession.count({ where: { merchantId: merchant.merchantId, endedAt: null } })).toBe(0);
    await Promise.all([page.context().close(), second.context().close()]);
  });

  it("changes nothing for a page on another origin that posts to /graphql with the session's cookie", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    const page = await newPage(browser);
    await page.goto(await linkFor(merchant.merchantId));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("main table.requests").textContent()).toContain(request.shortCode);
    await page.goto(elsewhereOrigin);
    const mutation = `mutation { requestCancel(input: { requestId: "${request.id}" }) { __typename } }`;
    const outcomes = await page.evaluate(
      async ({ base, mutation }) => {
        const attempts = {
          json: () =>
            fetch(`${base}/graphql`, {
              method: "POST",
              credentials: "include",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ query: mutation }),
            }),
          text: () =>
            fetch(`${base}/graphql`, {
              method: "POST",
              credentials: "include",
              mode: "no-cors",
              headers: { "content-type": "text/plain" },
              body: JSON.stringify({ query: mutation }),
            }),
          form: () =>
            fetch(`${base}/graphql`, {
              method: "POST",
              credentials: "include",
              mode: "no-cors",
              body: new URLSearchParams({ query: mutation }),
            }),
        };
        const outcomes: Record<string, string> = {};
        for (const [name, attempt] of Object.entries(attempts))
          outcomes[name] = await attempt().then(
            (answer) => `answered ${answer.type}`,
            (error: Error) => `refused: ${error.name}`,
          );
        return outcomes;
      },
      { base, mutation },
    );
    // The JSON call needs a preflight no origin passes; the others are sent, cookie and all, and refused.
    expect(outcomes).toEqual({ json: "refused: TypeError", text: "answered opaque", form: "answered opaque" });
    expect((await db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("NEW");
    await page.context().close();
  });
});
