/**
 * The console's webhook screens in Chromium, against the real API and a worker: an endpoint
 * registered at a loopback receiver and pinged, pointed at a port where nothing listens (failed
 * attempts, the next retry), disabled while a payment is held, enabled, and recovered since a time,
 * after the console said how many deliveries that would send: the receiver gets them.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payRequest } from "../../src/domain/requests/pay.js";
import { buildMerchant, buildRequest, payer, type TestMerchant } from "../factories.js";
import { db } from "../prisma.js";
import { startReceiver, withWorker, workerConfig } from "../worker/harness.js";
import { axeViolations, screenshot } from "./chromium.js";
import { startConsole } from "./console-harness.js";

let console_: Awaited<ReturnType<typeof startConsole>>;

// Development's settings: webhooks may go to this machine, where the receiver is.
beforeAll(async () => {
  console_ = await startConsole({ webhooks: { allowPrivateNetworks: true, testEventWaitMs: 10_000 } });
});

afterAll(() => console_?.close());

/** A loopback port nothing listens on: one the system gave and took back. */
async function deadPort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => probe.once("listening", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const paid = async (merchant: TestMerchant) => {
  const { request } = await buildRequest({ merchant });
  await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
  return request;
};

describe("the console's webhook screens in Chromium", () => {
  it("register, ping, fail, disable, enable and recover an endpoint, the receiver getting the held events", async () => {
    const merchant = await buildMerchant();
    const receiver = await startReceiver();
    const nowhere = `http://127.0.0.1:${await deadPort()}/hooks`;
    // Retries a minute apart: a failed delivery stays PENDING with its next attempt to show.
    await withWorker(workerConfig({ retryDelaysMs: [60_000, 60_000] }), async () => {
      const page = await console_.signedIn(merchant);
      await page.getByRole("link", { name: "Developers" }).click();
      await page.getByLabel("URL").fill(receiver.url);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect.poll(() => page.url()).toMatch(/\/console\/developers\/endpoints\//);
      const endpoint = await db.webhookEndpoint.findFirstOrThrow({ where: { merchantId: merchant.merchantId } });
      expect(endpoint.eventTypes).toEqual(["PAYMENT_COMPLETED", "REFUND_COMPLETED"]);

      await page.getByRole("button", { name: "Send test event" }).click();
      await expect
        .poll(() => page.getByRole("status").allTextContents())
        .toContainEqual(expect.stringMatching(/^The test event was delivered: 200 in \d+ ms\.$/));
      expect(receiver.received).toHaveLength(1);
      await expect.poll(() => page.locator(".delivery").first().textContent()).toMatch(/ping · DELIVERED/);
      expect(await page.locator(".delivery .attempts tbody").first().textContent()).toContain("200");
      await screenshot(page, "endpoint");
      expect(await axeViolations(page)).toEqual([]);

      // Pointed where nothing listens, a payment's delivery fails and waits for its next attempt.
      await page.getByLabel("URL").fill(nowhere);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect
        .poll(async () => (await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url)
        .toBe(nowhere);
      const first = await paid(merchant);
      await expect
        .poll(
          async () => (await db.delivery.findFirst({ where: { endpointId: endpoint.id, requestId: first.id } }))?.attempts ?? 0,
        )
        .toBe(1);
      await page.reload();
      const failed = page.locator(".delivery", { hasText: "payment.completed" });
      await expect.poll(() => failed.textContent()).toMatch(/PENDING .*Next attempt/);
      expect(await failed.locator(".attempts tbody").textContent()).toMatch(/FAILED/);

      // Disabled, a second payment is held; enabled at the receiver again, a recovery sends both.
      await page.getByRole("button", { name: "Disable" }).click();
      await expect.poll(() => page.getByRole("button", { name: "Enable" }).count()).toBe(1);
      const second = await paid(merchant);
      await expect
        .poll(async () => (await db.delivery.findFirst({ where: { endpointId: endpoint.id, requestId: second.id } }))?.state)
        .toBe("HELD");
      await page.getByRole("button", { name: "Enable" }).click();
      await expect.poll(() => page.getByRole("button", { name: "Disable" }).count()).toBe(1);
      await page.getByLabel("URL").fill(receiver.url);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect
        .poll(async () => (await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url)
        .toBe(receiver.url);

      await page.getByRole("button", { name: "Check" }).click();
      await expect.poll(() => page.locator(".confirm").textContent()).toContain("2 deliveries would be sent again.");
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Send 2 again" }).click();
      await expect.poll(() => page.getByRole("status").allTextContents()).toContain("2 deliveries queued.");
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(3);
      await page.context().close();
    });
    await receiver.close();
  });
});
