/**
 * The merchant console's screens in Chromium, against the real service: charging at the counter on
 * a phone, finding and refunding a payment, API keys, a read-only session, and a session that sees
 * nothing of another merchant's. axe-core checks each screen and state; PAYREQ_SCREENSHOTS=<folder>
 * keeps a picture of each at desktop and phone sizes.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { buildEndpoint, buildMerchant, buildRequest, payer, type TestMerchant } from "../factories.js";
import { db } from "../prisma.js";
import { axeViolations, screenshot } from "./chromium.js";
import { PHONE, startConsole } from "./console-harness.js";

let console_: Awaited<ReturnType<typeof startConsole>>;
let base: string;

beforeAll(async () => {
  console_ = await startConsole();
  base = console_.base;
});

afterAll(() => console_?.close());

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** A page signed in to `merchant`'s console, its name in the header. */
async function signedIn(merchant: TestMerchant, options: { readOnly?: boolean; phone?: boolean } = {}): Promise<Page> {
  const page = await console_.signedIn(merchant, options);
  await expect.poll(() => page.locator("#who").textContent()).toContain(merchant.name);
  return page;
}

const heading = (page: Page) => page.locator("main h2").textContent();

/** The API's answer to a GraphQL call with `merchant`'s key. */
async function withKey(key: string, query: string, variables: object = {}) {
  const answer = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ query, variables }),
  });
  return { status: answer.status, body: (await answer.json()) as { data?: any; errors?: { message: string }[] } };
}

describe("the merchant console's screens in Chromium", () => {
  it("charges 12.50 on a phone: the QR code and short code fill the screen, and it shows Paid within 2 s of the payment", async () => {
    const merchant = await buildMerchant();
    const page = await signedIn(merchant, { phone: true });
    await page.getByRole("link", { name: "Charge" }).click();
    await expect.poll(() => heading(page)).toBe("Charge");
    await screenshot(page, "charge");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Amount").fill("12.50");
    await page.getByLabel("Note (optional)").fill("table 4");
    await page.getByRole("button", { name: "Charge" }).click();
    const code = (await page.locator(".counter-code").textContent())!;
    const request = await db.paymentRequest.findFirstOrThrow({ where: { merchantId: merchant.merchantId, shortCode: code } });
    expect([request.amount, request.asset, request.description]).toEqual([1250n, "NZD", "table 4"]);
    await expect.poll(() => page.locator(".counter-amount").textContent()).toBe("Scan to pay NZD 12.50");
    const qr = await page.locator(".counter-qr").boundingBox();
    expect(qr!.width).toBeGreaterThan(PHONE.width * 0.7);
    await expect.poll(() => page.locator(".counter").getAttribute("data-live")).toBe("true");
    await screenshot(page, "charge-waiting");
    expect(await axeViolations(page)).toEqual([]);

    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    await expect
      .poll(() => page.locator(".counter-outcome").textContent(), { timeout: 2_000, interval: 50 })
      .toBe("Paid: NZD 12.50");
    await screenshot(page, "charge-paid");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New charge" }).click();
    await expect.poll(() => page.getByLabel("Amount").inputValue()).toBe("");
    await page.context().close();
  });

  it("finds a paid request by its note, refunds 5.00 of 12.50 after a confirmation, and shows the API's refusal of more than remains", async () => {
    const merchant = await buildMerchant();
    const [{ request }] = await Promise.all([
      buildRequest({ merchant, amount: 1250, description: "Table 7 lunch" }),
      buildRequest({ merchant, amount: 300, description: "Coffee" }),
    ]);
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    const page = await signedIn(merchant);
    await page.getByRole("link", { name: "Requests" }).click();
    await expect.poll(() => page.locator("main table.requests").textContent()).toContain("Coffee");
    await page.getByLabel("Text in description or reference").fill("table 7");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(`${base}/console/requests?text=table+7`);
    await expect.poll(() => page.locator("main tbody tr").count()).toBe(1);
    expect(await page.locator("main tbody").textContent()).toContain("Paid");
    await screenshot(page, "requests");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: request.shortCode }).click();
    await expect.poll(() => heading(page)).toBe(`Request ${request.shortCode}`);
    await expect.poll(() => page.locator(".refundable").textContent()).toBe("Refundable: NZD 12.50");
    await page.getByLabel("Amount to refund").fill("5.00");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await expect
      .poll(() => page.getByRole("alertdialog").textContent())
      .toContain("Refund NZD 5.00? NZD 7.50 will remain refundable.");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => page.locator(".refundable").textContent()).toBe("Refundable: NZD 7.50");
    expect(await db.transaction.count({ where: { requestId: request.id, type: "REFUND" } })).toBe(1);
    await screenshot(page, "request-refunded");
    expect(await axeViolations(page)).toEqual([]);

    // More than remains: the API's own words, and nothing changed.
    const purchase = await db.transaction.findFirstOrThrow({ where: { requestId: request.id, type: "PURCHASE" } });
    const refusal = await withKey(
      merchant.apiKey,
      `mutation ($input: TransactionRefundInput!) { transactionRefund(input: $input) { ... on Error { message } } }`,
      { input: { transactionId: purchase.id, amount: 800, externalReference: "probe" } },
    );
    const message = refusal.body.data.transactionRefund.message as string;
    await page.getByLabel("Amount to refund").fill("8.00");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(message);
    expect(await db.transaction.count({ where: { requestId: request.id, type: "REFUND" } })).toBe(1);
    // A second part within what remains.
    await page.getByLabel("Amount to refund").fill("2.50");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => page.locator(".refundable").textContent()).toBe("Refundable: NZD 5.00");
    expect(await db.transaction.count({ where: { requestId: request.id, type: "REFUND" } })).toBe(2);

    // Back returns to the filtered list; reload keeps the screen.
    await page.goBack();
    await expect.poll(() => page.getByLabel("Text in description or reference").inputValue()).toBe("table 7");
    await page.reload();
    await expect.poll(() => page.locator("main tbody tr").count()).toBe(1);
    await page.context().close();
  });

  it("shows today's takings per asset with a chart and its table, and the last 7 days by the day", async () => {
    const merchant = await buildMerchant();
    const [{ request: paid }] = await Promise.all([
      buildRequest({ merchant, amount: 1250 }),
      buildRequest({ merchant, amount: 300 }),
    ]);
    await payRequest(payer, { requestId: paid.id, authorization: "x", ledger: "test.uplink" });
    const page = await signedIn(merchant);
    const figure = (name: string) => page.locator(".figures div", { hasText: name }).locator("dd").textContent();
    await expect.poll(() => figure("Requests created")).toBe("2");
    expect(await figure("Payments")).toBe("1");
    expect(await figure("Paid")).toBe("NZD 12.50");
    expect(await figure("Refunded")).toBe("NZD 0.00");
    expect(await figure("Conversion")).toBe("50 %");
    expect(await page.locator(".chart canvas").count()).toBe(1);
    // The chart's figures as a table: 24 hours, one of them with the payment.
    await expect.poll(() => page.locator(".chart-figures tbody tr").count()).toBe(24);
    expect(await page.locator(".chart-figures tbody td", { hasText: "NZD 12.50" }).count()).toBe(1);
    await screenshot(page, "overview");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Last 7 days" }).click();
    await page.waitForURL(`${base}/console?period=7d`);
    await expect.poll(() => page.locator(".chart-figures tbody tr").count()).toBe(7);
    expect(await figure("Paid")).toBe("NZD 12.50");
    await page.context().close();
  });

  it("creates a key shown once, which calls the API until it is revoked", async () => {
    const merchant = await buildMerchant();
    const page = await signedIn(merchant);
    await page.getByRole("link", { name: "Developers" }).click();
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Label of the new key").fill("till printer");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator(".new-key code").textContent())!;
    await expect.poll(() => page.locator("main tbody").textContent()).toContain("till printer");
    await screenshot(page, "developers");
    expect(await axeViolations(page)).toEqual([]);
    expect((await withKey(key, "{ apiKeys { prefix } }")).status).toBe(200);

    const prefix = (await db.apiKey.findFirstOrThrow({ where: { merchantId: merchant.merchantId, label: "till printer" } }))
      .prefix;
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: `Revoke ${prefix}` }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toBe(`Revoked ${prefix}.`);
    expect(await page.locator("main").textContent()).not.toContain(key);
    expect((await withKey(key, "{ apiKeys { prefix } }")).status).toBe(401);
    await page.context().close();
  });

  it("charges from the keyboard alone, each control showing its focus", async () => {
    const merchant = await buildMerchant();
    const page = await signedIn(merchant);
    expect(await tabTo(page, "Charge")).toEqual({ text: "Charge", shows: true });
    await page.keyboard.press("Enter");
    await expect.poll(() => heading(page)).toBe("Charge");
    await page.keyboard.press("Tab");
    expect(await focused(page)).toEqual({ text: "amount", shows: true });
    await page.keyboard.type("4.20");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".counter-amount").textContent()).toBe("Scan to pay NZD 4.20");
    await page.context().close();
  });

  it("finds a payment and refunds part of it from the keyboard alone, the confirmation taking the focus and giving it back", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant, amount: 1250, description: "Table 9 dinner" });
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    const page = await signedIn(merchant);
    expect(await tabTo(page, "Requests")).toEqual({ text: "Requests", shows: true });
    await page.keyboard.press("Enter");
    await expect.poll(() => heading(page)).toBe("Requests");
    expect(await tabTo(page, "text")).toEqual({ text: "text", shows: true });
    await page.keyboard.type("table 9");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/console/requests?text=table+9`);
    expect(await tabTo(page, request.shortCode)).toEqual({ text: request.shortCode, shows: true });
    await page.keyboard.press("Enter");
    await expect.poll(() => heading(page)).toBe(`Request ${request.shortCode}`);

    expect(await tabTo(page, "amount")).toEqual({ text: "amount", shows: true });
    await page.keyboard.press("Control+A");
    await page.keyboard.type("5.00");
    await page.keyboard.press("Enter");
    // The question replaces the form: its Confirm button has the focus.
    await expect.poll(() => focused(page)).toEqual({ text: "Confirm", shows: true });
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".refundable").textContent()).toBe("Refundable: NZD 7.50");
    // Answered, the focus is back where the refund was asked for.
    await expect.poll(() => focused(page)).toEqual({ text: "amount", shows: true });
    expect(await db.transaction.count({ where: { requestId: request.id, type: "REFUND" } })).toBe(1);
    await page.context().close();
  });

  it("rolls a key: the new one shown once, the old one working for the overlap chosen", async () => {
    const merchant = await buildMerchant();
    const page = await signedIn(merchant);
    await page.goto(`${base}/console/developers/keys`);
    const prefix = keyPrefixOf(merchant.apiKey);
    await page.getByLabel("Roll a key").selectOption(prefix);
    await page.getByLabel("The old key keeps working").selectOption("3600");
    await page.getByRole("button", { name: "Roll", exact: true }).click();
    const key = (await page.locator(".new-key code").textContent())!;
    await expect.poll(() => page.locator("main tbody").textContent()).toMatch(new RegExp(`${prefix}.*active until`));
    expect(await axeViolations(page)).toEqual([]);
    expect((await withKey(key, "{ apiKeys { prefix } }")).status).toBe(200);
    expect((await withKey(merchant.apiKey, "{ apiKeys { prefix } }")).status).toBe(200);
    await page.context().close();
  });

  it("brands the pay page from settings: an SVG, an oversized logo and a low-contrast colour refused, an accepted logo shown", async () => {
    const merchant = await buildMerchant();
    const { request } = await buildRequest({ merchant });
    const page = await signedIn(merchant);
    await page.getByRole("link", { name: "Settings" }).click();
    const logo = (name: string, mimeType: string, buffer: Buffer) =>
      page.getByLabel("Logo").setInputFiles({ name, mimeType, buffer });
    const save = async () => {
      await page.getByRole("button", { name: "Save" }).click();
      return expect.poll(() => page.locator("main [role=alert], main [role=status] p").first().textContent());
    };
    await page.getByLabel("Accent colour").fill("#ffff00");
    await (await save()).toMatch(/^accentColor #ffff00 has a contrast of 1\.07:1 against white/);
    await page.getByLabel("Accent colour").fill("#0b5e5a");
    await logo("logo.svg", "image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    await (await save()).toBe("The logo may not be SVG: use PNG, JPEG or WebP.");
    await logo("big.png", "image/png", Buffer.concat([PNG, Buffer.alloc(70_000)]));
    await (await save()).toMatch(/^The logo is \d+ bytes: at most 65536\.$/);
    expect(await db.merchantBranding.count({ where: { merchantId: merchant.merchantId } })).toBe(0);

    await page.getByLabel("Display name").fill("Corner Cafe");
    await logo("logo.png", "image/png", PNG);
    await (await save()).toBe("Saved.");
    await expect.poll(() => page.locator(".brand-logo").count()).toBe(1);
    await screenshot(page, "settings");
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${base}/pay/${request.requestCode}`);
    expect(await page.locator(".merchant").textContent()).toBe("Corner Cafe");
    await expect
      .poll(() => page.locator("img.logo").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    expect(
      await page.locator(".summary").evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent")),
    ).toBe("#0b5e5a");
    await page.context().close();
  });

  it("lists the merchant's console sessions and ends another one, whose next call is refused", async () => {
    const merchant = await buildMerchant();
    const [page, other] = await Promise.all([signedIn(merchant), signedIn(merchant, { phone: true })]);
    await page.goto(`${base}/console/settings`);
    await expect.poll(() => page.locator("table.sessions tbody tr").count()).toBe(2);
    expect(await page.locator("table.sessions").textContent()).toContain("(this one)");
    await page.locator("table.sessions tbody tr", { hasNotText: "(this one)" }).getByRole("button", { name: /^End / }).click();
    await expect.poll(() => page.locator("table.sessions tbody tr").count()).toBe(1);
    await other.goto(`${base}/console/requests`);
    await expect.poll(() => other.locator("main h2").textContent()).toBe("You are not signed in");
    await Promise.all([page.context().close(), other.context().close()]);
  });

  it("offers a read-only session no change on any screen", async () => {
    const merchant = await buildMerchant();
    const [{ request: paid }, { request: open }] = await Promise.all([buildRequest({ merchant }), buildRequest({ merchant })]);
    await payRequest(payer, { requestId: paid.id, authorization: "x", ledger: "test.uplink" });
    const page = await signedIn(merchant, { readOnly: true });
    const endpoint = await buildEndpoint(merchant);
    const changes = () =>
      page
        .getByRole("button", {
          name: /^(Charge|Refund|Cancel request|Create key|Revoke|Add endpoint|Send|Disable|Enable|Save|Check|End|Roll)/,
        })
        .count();
    for (const [name, path] of [
      ["charge", "/console/charge"],
      ["request-paid", `/console/requests/${paid.id}`],
      ["request-open", `/console/requests/${open.id}`],
      ["endpoint", `/console/developers/endpoints/${endpoint.id}`],
      ["keys", "/console/developers/keys"],
      ["events", "/console/developers/events"],
      ["settings", "/console/settings"],
      ["endpoints", "/console/developers"],
    ]) {
      await page.goto(`${base}${path}`);
      await expect.poll(() => page.locator("main h2").count()).toBe(1);
      await expect.poll(() => page.locator("main .loading").count()).toBe(0);
      expect(await changes(), path).toBe(0);
      await screenshot(page, `read-only-${name}`);
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.context().close();
  });

  it("shows a session nothing of another merchant's, by list or by address", async () => {
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const [{ request: mine }, { request: theirs }] = await Promise.all([
      buildRequest({ merchant, description: "ours" }),
      buildRequest({ merchant: other, description: "theirs" }),
    ]);
    const page = await signedIn(merchant);
    await page.goto(`${base}/console/requests`);
    await expect.poll(() => page.locator("main tbody").textContent()).toContain(mine.shortCode);
    expect(await page.locator("main").textContent()).not.toContain(theirs.shortCode);
    await page.goto(`${base}/console/requests/${theirs.id}`);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("No such request.");
    expect(await page.locator("main").textContent()).not.toContain(theirs.shortCode);
    await page.context().close();
  });
});

/** The focused element's text (or its name, for a field) and whether its focus shows (an outline of some width). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return {
      text: element.textContent || element.getAttribute("name"),
      shows: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0,
    };
  });

/** Presses Tab until the control of that text or name has the focus (at most 30 times); answers what has it then. */
async function tabTo(page: Page, text: string) {
  for (let tabs = 0; tabs < 30 && (await focused(page)).text !== text; tabs++) await page.keyboard.press("Tab");
  return focused(page);
}
