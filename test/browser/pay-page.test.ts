/**
 * The hosted pay page in Debian's Chromium, every request that leaves loopback refused: a person
 * sees the amount in display units, pays with a sandbox wallet, sees the receipt; a page left open
 * turns to paid when the request is paid elsewhere; expired, cancelled and unknown codes have their
 * own pages; the page fits a 360 px phone; axe-core finds nothing; nothing outside the payer's
 * view reaches the page; a cross-site post is refused; a double submit pays once.
 */
import { createServer, type Server } from "node:http";
import { mkdir } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import type { Browser, BrowserContextOptions } from "playwright-core";
import { axeViolations, launchChromium, newPage } from "./chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowRedirects } from "../../src/domain/merchants/redirects.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { createRequest } from "../../src/domain/requests/create.js";
import { createTestApp } from "../test-app.js";
import {
  buildMerchant,
  buildPayerKey,
  buildWallet,
  operator,
  outboxFor,
  walletBalance,
  type TestMerchant,
} from "../factories.js";

let app: ReturnType<typeof createTestApp>;
let server: ServerType;
let base: string;
let browser: Browser;
const CROSS_SITE: { server?: Server; base?: string } = {};

beforeAll(async () => {
  // The service's own address is what its pages and QR codes name (PUBLIC_URL).
  server = serve({ fetch: (request, env) => app.fetch(request, env), port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = createTestApp({}, { publicUrl: base });
  browser = await launchChromium();
  // Another origin on loopback, whose page posts a payment form to the service.
  CROSS_SITE.server = createServer((request, response) => {
    const [code, wallet] = new URL(request.url!, "http://x").searchParams.values();
    response.setHeader("content-type", "text/html");
    response.end(`<form id="f" method="post" action="${base}/pay/${code}"><input name="wallet" value="${wallet}">
      <input name="csrf" value="guessed"><input name="idempotencyKey" value="k"></form><script>document.getElementById("f").submit()</script>`);
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => CROSS_SITE.server!.once("listening", resolve));
  CROSS_SITE.base = `http://127.0.0.1:${(CROSS_SITE.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  CROSS_SITE.server?.close();
  await app?.dispose();
});

/** A page whose requests beyond loopback are refused and listed, with the calls it made to the service. */
async function openPage(options: BrowserContextOptions = {}) {
  const page = await newPage(browser, { locale: "en-NZ", ...options });
  const leaving: string[] = [];
  const calls: string[] = [];
  await page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") {
      calls.push(`${route.request().method()} ${url.pathname}`);
      return route.continue();
    }
    leaving.push(url.href);
    return route.abort();
  });
  return { page, leaving, calls, close: () => page.context().close() };
}

async function newRequest(merchant: TestMerchant, extra: Record<string, unknown> = {}, now?: Date) {
  return createRequest(now ? merchant.at(now) : merchant.ctx, {
    merchantId: merchant.merchantId,
    asset: "NZD",
    amount: 300,
    description: "Flat white",
    ...extra,
  });
}

const rest = (operation: string, apiKey: string, json: Record<string, unknown>) =>
  fetch(`${base}/api/${operation}`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify(json),
  });

describe("the pay page", () => {
  it("shows the amount in display units, pays with a sandbox wallet and shows the receipt, debiting the wallet once", async () => {
    const merchant = await buildMerchant();
    await allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["https://shop.example/"] });
    // Its notification is only recorded here (no worker reads this database); the address is loopback's discard port.
    const request = await newRequest(merchant, {
      redirectUrl: "https://shop.example/thanks?order=7",
      notifyUrl: "http://127.0.0.1:9/hook",
    });
    const wallet = await buildWallet(1000);
    const { page, leaving, close } = await openPage();

    await page.goto(`${base}/pay/${request.requestCode}`);
    await expect.poll(() => page.locator(".amount").innerText()).toBe("NZD 3.00");
    expect(await page.locator(".merchant").innerText()).toBe(merchant.name);
    expect(await page.locator("body").innerText()).toContain(request.shortCode);
    await expect.poll(() => page.locator("#countdown").innerText()).toMatch(/^[12] min \d+ s$/);
    // PAYREQ_SCREENSHOTS=<folder> keeps a picture of the page there (docs/ holds the README's).
    if (process.env["PAYREQ_SCREENSHOTS"]) {
      const file = resolve(process.env["PAYREQ_SCREENSHOTS"], "pay-page.png");
      await mkdir(dirname(file), { recursive: true });
      await page.setViewportSize({ width: 900, height: 1000 });
      await page.screenshot({ path: file, fullPage: true });
    }

    await page.getByLabel("Wallet id").fill(wallet.walletId);
    await page.getByRole("button", { name: "Pay NZD 3.00" }).click();
    await expect.poll(() => page.locator("#receipt-title").isVisible()).toBe(true);
    expect(await page.locator("#paid-amount").innerText()).toBe("NZD 3.00");
    const transactionId = await page.locator("#paid-transaction").innerText();
    expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.locator("#status-text").innerText()).toBe("Paid");
    expect(await page.getByRole("link", { name: `Return to ${merchant.name}` }).getAttribute("href")).toBe(
      "https://shop.example/thanks?order=7",
    );
    expect(await walletBalance(wallet.walletId)).toBe(700n);
    // The merchant is told, as for any payment: the notification is in the outbox with the payment.
    expect((await outboxFor(request.id)).map((event) => event.transactionId)).toEqual([transactionId]);

    // Loaded again, the page is the receipt.
    await page.reload();
    expect(await page.locator("#paid-transaction").innerText()).toBe(transactionId);
    expect(await page.locator("#wallet-form").isVisible()).toBe(false);
    expect(leaving).toEqual([]);
    await close();
  });

  it("turns to paid without a reload when the request is paid elsewhere, over its stream", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const request = await newRequest(merchant);
    const { page, calls, close } = await openPage();
    await page.goto(`${base}/pay/${request.requestCode}`);
    // The stream has given the page the request's state (so the service listens for its changes).
    await expect.poll(() => page.locator("#pay").getAttribute("data-live")).toBe("stream");

    const paid = await rest("requests.pay", payerKey, { requestId: request.id, ledger: "test.uplink", authorization: "ok" });
    expect(paid.status).toBe(200);
    await expect.poll(() => page.locator("#status-text").innerText()).toBe("Paid");
    expect(await page.locator("#paid-amount").innerText()).toBe("NZD 3.00");
    // It came over the stream: the page neither reloaded nor had to poll.
    expect(calls.filter((call) => call === `GET /pay/${request.requestCode}`)).toHaveLength(1);
    expect(calls.filter((call) => call.endsWith("/status"))).toEqual([]);
    await close();
  });

  it("polls when its stream is cut, and still turns to paid", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const request = await newRequest(merchant);
    const { page, calls, close } = await openPage();
    // The stream is refused, as a suspended phone's connection would drop.
    await page.route(`**/pay/${request.requestCode}/events`, (route) => route.abort());
    await page.goto(`${base}/pay/${request.requestCode}`);
    await expect.poll(() => calls.filter((call) => call.endsWith("/status")).length).toBeGreaterThan(0);
    await rest("requests.pay", payerKey, { requestId: request.id, ledger: "test.uplink", authorization: "ok" });
    await expect.poll(() => page.locator("#status-text").innerText(), { timeout: 10_000 }).toBe("Paid");
    await close();
  });

  it("has its own pages for expired, cancelled and unknown codes (unknown: 404), and finds a typed short code", async () => {
    const merchant = await buildMerchant();
    const expired = await newRequest(merchant, {}, new Date(Date.now() - 3_600_000));
    const cancelled = await newRequest(merchant);
    await cancelRequest(merchant.ctx, { requestId: cancelled.id });
    const open = await newRequest(merchant);
    const { page, close } = await openPage();

    await page.goto(`${base}/pay/${expired.requestCode}`);
    expect(await page.locator("h1").innerText()).toBe("Payment request expired");
    expect(await page.locator("#wallet-form").isVisible()).toBe(false);

    await page.goto(`${base}/pay/${cancelled.requestCode}`);
    expect(await page.locator("h1").innerText()).toBe("Payment request cancelled");

    const unknown = await page.goto(`${base}/pay/NOSUCHCODE`);
    expect(unknown!.status()).toBe(404);
    expect(await page.locator("h1").innerText()).toBe("Payment request not found");

    await page.goto(`${base}/pay`);
    await page.getByLabel("Payment code").fill(open.shortCode.toLowerCase().replaceAll("-", " "));
    await page.getByRole("button", { name: "Find the payment request" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/pay/${open.requestCode}`);
    expect(await page.locator(".amount").innerText()).toBe("NZD 3.00");
    await close();
  });

  it("speaks Spanish to a browser that asks for it", async () => {
    const merchant = await buildMerchant();
    const request = await newRequest(merchant);
    const { page, close } = await openPage({ locale: "es-ES" });
    await page.goto(`${base}/pay/${request.requestCode}`);
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    expect(await page.getByRole("button", { name: "Pagar NZD 3.00" }).isVisible()).toBe(true);
    await close();
  });

  it("fits a 360 px wide phone without horizontal scrolling, and axe-core finds no violation on any of its pages", async () => {
    const merchant = await buildMerchant();
    const open = await newRequest(merchant, { description: "A long description ".repeat(8) });
    const paid = await newRequest(merchant);
    const payerKey = await buildPayerKey();
    await rest("requests.pay", payerKey, { requestId: paid.id, ledger: "test.uplink", authorization: "ok" });
    const expired = await newRequest(merchant, {}, new Date(Date.now() - 3_600_000));
    // axe-core is injected as a script, which the page's own policy (rightly) refuses.
    const { page, close } = await openPage({ viewport: { width: 360, height: 740 }, bypassCSP: true });
    for (const path of [
      `/pay/${open.requestCode}`,
      `/pay/${paid.requestCode}`,
      `/pay/${expired.requestCode}`,
      "/pay",
      "/pay/NOSUCHCODE",
    ]) {
      await page.goto(`${base}${path}`);
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(widths[0], path).toBeLessThanOrEqual(widths[1]!);
      expect(await axeViolations(page), path).toEqual([]);
    }
    // And on a shop's display.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/pay/${open.requestCode}`);
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it("never shows a field outside the payer's view: not in the page, its status, or its stream", async () => {
    const merchant = await buildMerchant();
    const secret = `secret-${Date.now()}`;
    const request = await newRequest(merchant, {
      notifyUrl: `http://127.0.0.1:9/hooks/${secret}`,
      externalReference: `ref-${secret}`,
    });
    const payerFields = [
      "requestId",
      "merchantId",
      "denomination",
      "payments",
      "paidBy",
      "requestCode",
      "shortCode",
      "qrCode",
      "description",
      "status",
      "createdAt",
      "updatedAt",
      "expiresAt",
    ];
    const html = await (await fetch(`${base}/pay/${request.requestCode}`)).text();
    const status = await (await fetch(`${base}/pay/${request.requestCode}/status`)).json();
    const stream = await fetch(`${base}/pay/${request.requestCode}/events`);
    const reader = stream.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    const firstEvent = new TextDecoder().decode(value);
    const streamed = JSON.parse(/data: (.*)/.exec(firstEvent)![1]!);
    for (const shown of [status, streamed]) for (const field of Object.keys(shown)) expect(payerFields).toContain(field);
    for (const text of [html, JSON.stringify(status), firstEvent]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain("notifyUrl");
      expect(text).not.toContain("externalReference");
    }
  });

  it("refuses a payment posted from another site, changing nothing", async () => {
    const merchant = await buildMerchant();
    const request = await newRequest(merchant);
    const wallet = await buildWallet(1000);
    const { page, close } = await openPage();
    // The payer has the page open (and so its cookie) when another site posts the form.
    await page.goto(`${base}/pay/${request.requestCode}`);
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await page.goto(`${CROSS_SITE.base}/?code=${request.requestCode}&wallet=${wallet.walletId}`);
    expect((await answer).status()).toBe(303);
    await expect.poll(() => page.url()).toContain("error=FORBIDDEN");
    expect(await walletBalance(wallet.walletId)).toBe(1000n);
    const status = await (await fetch(`${base}/pay/${request.requestCode}/status`)).json();
    expect(status.status).toBe("new");
    await close();
  });

  it("pays after a refused try, with and without script: a mistyped wallet, then one too poor, then the right one", async () => {
    const merchant = await buildMerchant();
    const wallet = await buildWallet(1000);
    const poor = await buildWallet(100);
    for (const javaScriptEnabled of [true, false]) {
      const request = await newRequest(merchant);
      const { page, close } = await openPage({ javaScriptEnabled });
      await page.goto(`${base}/pay/${request.requestCode}`);
      const tryWallet = async (walletId: string) => {
        await page.getByLabel("Wallet id").fill(walletId);
        await page.getByRole("button", { name: "Pay NZD 3.00" }).click();
      };
      await tryWallet("no-such-wallet");
      await expect
        .poll(() => page.locator("#form-error").innerText(), { message: `script: ${javaScriptEnabled}` })
        .toBe("There is no such wallet for this currency.");
      await tryWallet(poor.walletId);
      await expect.poll(() => page.locator("#form-error").innerText()).toBe("The wallet does not hold enough to pay this.");
      await tryWallet(wallet.walletId);
      await expect.poll(() => page.locator("#status-text").innerText(), { message: `script: ${javaScriptEnabled}` }).toBe("Paid");
      await close();
    }
    expect(await walletBalance(wallet.walletId)).toBe(400n);
    expect(await walletBalance(poor.walletId)).toBe(100n);
  });

  it("counts a long request down in hours, shows an en-NZ reader's date day first, and says nothing due or live once paid or expired", async () => {
    const merchant = await buildMerchant();
    const request = await newRequest(merchant, { paymentExpirySeconds: 86_399 });
    const wallet = await buildWallet(1000);
    const { page, close } = await openPage({ locale: "en-NZ", timezoneId: "Pacific/Auckland" });
    await page.goto(`${base}/pay/${request.requestCode}`);
    await expect.poll(() => page.locator("#countdown").innerText()).toMatch(/^23 h 59 min$/);
    expect(await page.locator("#amount-label").innerText()).toBe("Amount due");
    expect(await page.locator(".live").isVisible()).toBe(true);

    await page.getByLabel("Wallet id").fill(wallet.walletId);
    await page.getByRole("button", { name: "Pay NZD 3.00" }).click();
    await expect.poll(() => page.locator("#receipt-title").isVisible()).toBe(true);
    const paidAt = new Date((await page.locator("#paid-at").getAttribute("datetime"))!);
    const nz = new Intl.DateTimeFormat("en-NZ", {
      timeZone: "Pacific/Auckland",
      day: "numeric",
      month: "short",
      year: "numeric",
    });
    const shown = await page.locator("#paid-at").innerText();
    // Day first, as New Zealand writes it ("27 Nov 2026, 9:41 am"), not the US "Nov 27, 2026".
    expect(shown.startsWith(nz.format(paidAt)), shown).toBe(true);
    expect(await page.locator("#amount-label").innerText()).toBe("Amount");
    expect(await page.locator(".live").isVisible()).toBe(false);

    // The same receipt opened afresh, and an expired request's page.
    await page.reload();
    expect(await page.locator("#amount-label").innerText()).toBe("Amount");
    expect(await page.locator(".live").isVisible()).toBe(false);
    await expect.poll(() => page.locator("#paid-at").innerText()).toBe(shown);
    const expired = await newRequest(merchant, {}, new Date(Date.now() - 10 * 60_000));
    await page.goto(`${base}/pay/${expired.requestCode}`);
    expect(await page.locator("#amount-label").innerText()).toBe("Amount");
    expect(await page.locator(".live").isVisible()).toBe(false);
    await close();
  });

  it("pays once for a double submit: two clicks, or the same form posted twice at once", async () => {
    const merchant = await buildMerchant();
    const [first, second] = [await newRequest(merchant), await newRequest(merchant)];
    const wallet = await buildWallet(1000);
    const { page, calls, close } = await openPage();

    await page.goto(`${base}/pay/${first.requestCode}`);
    await page.getByLabel("Wallet id").fill(wallet.walletId);
    await page.getByRole("button", { name: "Pay NZD 3.00" }).dblclick();
    await expect.poll(() => page.locator("#status-text").innerText()).toBe("Paid");
    expect(calls.filter((call) => call === `POST /pay/${first.requestCode}`)).toHaveLength(1);

    // The same form (its token and idempotency key) posted twice at once, as a page without script would.
    await page.goto(`${base}/pay/${second.requestCode}`);
    const fields = await page.evaluate(() => {
      const form = document.getElementById("wallet-form") as HTMLFormElement;
      return Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
    });
    const post = () =>
      page.request.post(`${base}/pay/${second.requestCode}`, {
        form: { ...fields, wallet: wallet.walletId },
        headers: { accept: "application/json", origin: base },
      });
    const answers = await Promise.all([post(), post()]);
    const codes = await Promise.all(answers.map(async (a) => (a.ok() ? "paid" : (await a.json()).error.code)));
    expect(codes.filter((code) => code === "paid").length).toBeGreaterThanOrEqual(1);
    for (const code of codes) expect(["paid", "IDEMPOTENCY_KEY_IN_USE"]).toContain(code);
    expect(await walletBalance(wallet.walletId)).toBe(400n);
    await close();
  });
});
