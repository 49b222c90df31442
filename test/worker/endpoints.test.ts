import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import type { EventType } from "../../src/generated/prisma/enums.js";
import { cancelRequest } from "../../src/domain/requests/cancel.js";
import { expireOverdueRequests } from "../../src/domain/requests/expire.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { updateWebhookEndpoint } from "../../src/domain/webhooks/endpoints.js";
import { endpointHealth } from "../../src/domain/deliveries/endpoint-health.js";
import { pingWebhookEndpoint } from "../../src/domain/deliveries/ping.js";
import { recoverWebhookDeliveries } from "../../src/domain/deliveries/recover.js";
import { redeliverEndpointDelivery } from "../../src/domain/deliveries/redeliver.js";
import { buildEndpoint, buildMerchant, buildRequest, payer, type TestMerchant } from "../factories.js";
import { graphqlPostTo } from "../fixtures.js";
import { createTestApp } from "../test-app.js";
import { keptLog, startReceiver, until, verifyNotifications, withWorker, workerConfig, type Received } from "./harness.js";

const loopback = { allowPrivateNetworks: true };

async function endpointFor(merchant: TestMerchant, url: string, eventTypes: EventType[]) {
  return buildEndpoint(merchant, { url, eventTypes });
}

async function paid(merchant: TestMerchant, notifyUrl?: string) {
  const { request } = await buildRequest({ merchant, amount: 1200, ...(notifyUrl ? { notifyUrl } : {}) });
  const done = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
  return { request: done, purchase: done.purchase! };
}

/** The verified claims of what a receiver got, in arrival order. */
async function claimsOf(received: Received[]) {
  return (await verifyNotifications(received.map((r) => r.token))) as Record<string, unknown>[];
}

/** Every delivery of the merchant's events (and notifications) has reached a final state. */
function allSettled(merchantId: string) {
  return until(
    () => db.delivery.findMany({ where: { merchantId } }),
    (rows) => rows.length > 0 && rows.every((row) => row.state !== "PENDING"),
    20_000,
    "every delivery of the merchant to be settled",
  );
}

describe("webhook endpoints", () => {
  it("deliver to each endpoint exactly the event types it subscribes to, and to notifyUrl what it always received", async () => {
    const [expiredAndRefunds, paymentsAndCancels, notifyUrl] = await Promise.all([
      startReceiver(),
      startReceiver(),
      startReceiver(),
    ]);
    const merchant = await buildMerchant();
    const first = await endpointFor(merchant, expiredAndRefunds.url, ["REQUEST_EXPIRED", "REFUND_COMPLETED"]);
    await endpointFor(merchant, paymentsAndCancels.url, ["PAYMENT_COMPLETED", "REQUEST_CANCELLED"]);

    await withWorker(workerConfig(), async () => {
      const { request, purchase } = await paid(merchant, notifyUrl.url);
      const refund = await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 500 });
      const { request: cancelled } = await buildRequest({ merchant });
      await cancelRequest(merchant.ctx, { requestId: cancelled.id });
      const { request: expiring } = await buildRequest({ merchant, paymentExpirySeconds: 1 });
      expect(await expireOverdueRequests(new Date(Date.now() + 2_000), { merchantId: merchant.merchantId })).toBe(1);
      await allSettled(merchant.merchantId);

      const events = await db.event.findMany({ where: { merchantId: merchant.merchantId } });
      const idOf = (type: EventType) => events.find((event) => event.type === type)!.id;
      expect(events.map((event) => event.type).sort()).toEqual([
        "PAYMENT_COMPLETED",
        "REFUND_COMPLETED",
        "REQUEST_CANCELLED",
        "REQUEST_EXPIRED",
      ]);

      const toFirst = await claimsOf(expiredAndRefunds.received);
      expect(toFirst.map((c) => [c.type, c.jti]).sort()).toEqual(
        [
          ["refund.completed", idOf("REFUND_COMPLETED")],
          ["request.expired", idOf("REQUEST_EXPIRED")],
        ].sort(),
      );
      expect(toFirst.find((c) => c.type === "refund.completed")).toMatchObject({
        transaction: { transactionId: refund.id, transactionType: "REFUND", amount: 500, request: { requestId: request.id } },
      });
      expect(toFirst.find((c) => c.type === "request.expired")).toMatchObject({
        request: {
          requestId: expiring.id,
          merchantId: merchant.merchantId,
          status: "expired",
          denomination: { amount: 1000, asset: "NZD" },
        },
      });

      const toSecond = await claimsOf(paymentsAndCancels.received);
      expect(toSecond.map((c) => c.type).sort()).toEqual(["payment.completed", "request.cancelled"]);
      expect(toSecond.find((c) => c.type === "request.cancelled")).toMatchObject({
        request: { requestId: cancelled.id, status: "cancelled" },
      });

      // notifyUrl: the purchase and the refund, in the notification format, with no event claims.
      const legacy = await claimsOf(notifyUrl.received);
      expect(legacy.map((c) => (c.transaction as { transactionType: string }).transactionType).sort()).toEqual([
        "PURCHASE",
        "REFUND",
      ]);
      for (const claims of legacy) expect(Object.keys(claims).sort()).toEqual(["iat", "iss", "jti", "transaction"]);
      expect(first.eventTypes).toEqual(["REQUEST_EXPIRED", "REFUND_COMPLETED"]);
    });
    await Promise.all([expiredAndRefunds.close(), paymentsAndCancels.close(), notifyUrl.close()]);
  });

  it("announce an expiry once, even with two workers sweeping at once", async () => {
    const receiver = await startReceiver();
    const merchant = await buildMerchant();
    await endpointFor(merchant, receiver.url, ["REQUEST_EXPIRED"]);
    const requests = await Promise.all(
      Array.from({ length: 30 }, async () => (await buildRequest({ merchant, paymentExpirySeconds: 1 })).request),
    );
    const sweeping = workerConfig({}, { expiry: { sweepIntervalMs: 100 } });
    await withWorker(sweeping, () =>
      withWorker(sweeping, async () => {
        // Beside the workers' scheduled sweeps (BullMQ runs one at a time), sweeps that overlap, in small
        // batches, as when a worker's sweep outlives its schedule's lock.
        const overdue = new Date(Date.now() + 2_000);
        const swept = await Promise.all(
          Array.from({ length: 4 }, () => expireOverdueRequests(overdue, { merchantId: merchant.merchantId }, 3)),
        );
        expect(swept.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(requests.length);
        await until(
          () => receiver.received.length,
          (n) => n >= requests.length,
          20_000,
          "an expiry event for every request",
        );
        await allSettled(merchant.merchantId);
      }),
    );
    const events = await db.event.findMany({ where: { merchantId: merchant.merchantId } });
    expect(events.map((event) => event.requestId).sort()).toEqual(requests.map((request) => request.id).sort());
    const jtis = receiver.received.map((r) => decodeJwt(r.token).jti);
    expect(new Set(jtis).size).toBe(jtis.length);
    expect(jtis.sort()).toEqual(events.map((event) => event.id).sort());
    await receiver.close();
  });

  it("send a receiver that was down every missed event with one recovery, each once", async () => {
    let down = false;
    const receiver = await startReceiver(() => ({ status: down ? 503 : 200 }));
    const merchant = await buildMerchant();
    const endpoint = await endpointFor(merchant, receiver.url, ["PAYMENT_COMPLETED"]);
    // Two attempts each, 30 ms apart: a missed event gives up quickly.
    await withWorker(workerConfig({ retryDelaysMs: [30] }), async () => {
      await paid(merchant);
      await allSettled(merchant.merchantId);
      const since = new Date();
      down = true;
      const missed = await Promise.all(Array.from({ length: 6 }, () => paid(merchant)));
      const exhausted = await until(
        () => db.delivery.findMany({ where: { endpointId: endpoint.id, createdAt: { gte: since } } }),
        (rows) => rows.length === missed.length && rows.every((row) => row.state === "EXHAUSTED"),
        20_000,
        "the missed events to be exhausted",
      );
      const failedCalls = receiver.received.length;
      down = false;

      const recovery = await recoverWebhookDeliveries(merchant.ctx, { endpointId: endpoint.id, since });
      expect(recovery).toEqual({ endpointId: endpoint.id, queued: missed.length });
      const after = await until(
        () => receiver.received.slice(failedCalls),
        (calls) => calls.length >= missed.length,
        20_000,
        "the recovered events",
      );
      await allSettled(merchant.merchantId);
      const recovered = receiver.received.slice(failedCalls).map((r) => decodeJwt(r.token).jti);
      expect(recovered.sort()).toEqual(exhausted.map((row) => row.eventId).sort());
      expect(after).toHaveLength(missed.length);

      // Its health counts every attempt of the last day: 1 delivered, 6 × 2 failed, 6 delivered on recovery.
      const health = await endpointHealth(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }), new Date());
      expect(health).toMatchObject({
        attemptsLastDay: 19,
        successShareLastDay: 7 / 19,
        lastOutcome: "DELIVERED",
        failingSince: null,
      });

      // Another recovery within the minute is refused, and would queue nothing anyway.
      await expect(recoverWebhookDeliveries(merchant.ctx, { endpointId: endpoint.id, since })).rejects.toMatchObject({
        code: "RATE_LIMIT_EXCEEDED",
      });
    });
    await receiver.close();
  });

  it("send one given-up delivery again on request, to its own merchant only and while its endpoint is enabled", async () => {
    let down = true;
    const [receiver, notifyUrl] = await Promise.all([startReceiver(() => ({ status: down ? 503 : 200 })), startReceiver()]);
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const endpoint = await endpointFor(merchant, receiver.url, ["PAYMENT_COMPLETED"]);
    await withWorker(workerConfig({ retryDelaysMs: [30] }), async () => {
      const { request } = await paid(merchant, notifyUrl.url);
      const [exhausted] = await until(
        () => db.delivery.findMany({ where: { endpointId: endpoint.id } }),
        (rows) => rows.length === 1 && rows[0]!.state === "EXHAUSTED",
      );
      const notification = await db.delivery.findFirstOrThrow({ where: { requestId: request.id, endpointId: null } });
      for (const [ctx, deliveryId] of [
        [other.ctx, exhausted!.id],
        [merchant.ctx, notification.id],
      ] as const)
        await expect(redeliverEndpointDelivery(ctx, { deliveryId })).rejects.toMatchObject({ code: "WEBHOOK_EVENT_NOT_FOUND" });
      await updateWebhookEndpoint(merchant.ctx, { endpointId: endpoint.id, enabled: false }, loopback);
      await expect(redeliverEndpointDelivery(merchant.ctx, { deliveryId: exhausted!.id })).rejects.toMatchObject({
        code: "WEBHOOK_ENDPOINT_DISABLED",
      });
      await updateWebhookEndpoint(merchant.ctx, { endpointId: endpoint.id, enabled: true }, loopback);

      down = false;
      const calls = receiver.received.length;
      expect(await redeliverEndpointDelivery(merchant.ctx, { deliveryId: exhausted!.id })).toMatchObject({ state: "PENDING" });
      const delivered = await until(
        () => db.delivery.findUniqueOrThrow({ where: { id: exhausted!.id } }),
        (row) => row.state === "DELIVERED",
      );
      expect(delivered).toMatchObject({ attempts: 3, attemptLimit: 3 });
      expect(receiver.received.slice(calls).map((r) => decodeJwt(r.token).jti)).toEqual([exhausted!.eventId]);
    });
    await Promise.all([receiver.close(), notifyUrl.close()]);
  });

  it("record every attempt of a burst to several endpoints that fail and recover", async () => {
    // Every third answer fails: each endpoint keeps moving between failing and healthy while a
    // dozen batches finish at once. Each batch's record must commit: every call the receiver got
    // is a finished attempt, and none is left in flight (a lost record is sent again after its lease).
    // An event fails at most twice, on whichever endpoints: a delivery whose eight attempts all met a
    // third answer would end EXHAUSTED (one in 6,500 by chance, one run in 30 with 240 deliveries).
    const failed = new Map<string, number>();
    const receiver: Awaited<ReturnType<typeof startReceiver>> = await startReceiver((index) => {
      const { jti = "" } = decodeJwt(receiver.received[index]!.token);
      const failures = failed.get(jti) ?? 0;
      const fails = index % 3 === 0 && failures < 2;
      if (fails) failed.set(jti, failures + 1);
      return { status: fails ? 500 : 200 };
    });
    const merchant = await buildMerchant();
    await Promise.all(Array.from({ length: 4 }, (_, n) => endpointFor(merchant, `${receiver.url}/${n}`, ["PAYMENT_COMPLETED"])));
    const log = keptLog();
    await withWorker(
      workerConfig({ retryDelaysMs: Array(7).fill(20), concurrency: 200 }),
      async () => {
        await Promise.all(Array.from({ length: 60 }, () => paid(merchant)));
        await until(
          // A failure prints how many there are, and those not delivered.
          async () => {
            const all = await db.delivery.findMany({ where: { merchantId: merchant.merchantId } });
            return { count: all.length, undelivered: all.filter((row) => row.state !== "DELIVERED") };
          },
          ({ count, undelivered }) => count === 240 && undelivered.length === 0,
          // Failing endpoints get a few attempts at once each (destination.ts): a few seconds on a
          // quiet machine, many more while other work keeps the cores busy.
          75_000,
          "every delivery to be delivered",
        );
      },
      log.logger,
    );
    const attempts = await db.webhookAttempt.groupBy({
      by: ["outcome"],
      where: { delivery: { merchantId: merchant.merchantId } },
      _count: true,
    });
    const finished = attempts.filter((a) => a.outcome !== "IN_FLIGHT").reduce((sum, a) => sum + a._count, 0);
    expect(attempts.find((a) => a.outcome === "IN_FLIGHT")).toBeUndefined();
    expect(finished).toBe(receiver.received.length);
    expect(log.lines.filter((line) => /deadlock|lost a job/.test(line))).toEqual([]);
    await receiver.close();
  }, 90_000);

  it("send a signed test event now and answer with its outcome", async () => {
    let status = 200;
    const receiver = await startReceiver(() => ({ status }));
    const merchant = await buildMerchant();
    const endpoint = await endpointFor(merchant, receiver.url, ["PAYMENT_COMPLETED"]);
    await withWorker(workerConfig(), async () => {
      const ok = await pingWebhookEndpoint(merchant.ctx, { endpointId: endpoint.id }, 10_000);
      expect(ok.attempt).toMatchObject({ outcome: "DELIVERED", statusCode: 200 });
      const [claims] = await claimsOf(receiver.received);
      expect(claims).toMatchObject({ type: "ping", jti: ok.delivery.id, endpoint: { endpointId: endpoint.id } });

      status = 500;
      const failed = await pingWebhookEndpoint(merchant.ctx, { endpointId: endpoint.id }, 10_000);
      expect(failed.attempt).toMatchObject({ outcome: "FAILED", statusCode: 500 });
      // A test event is tried once: it is an answer, not a delivery to retry.
      await until(
        () => db.delivery.findUniqueOrThrow({ where: { id: failed.delivery.id } }),
        (row) => row.state === "EXHAUSTED",
      );
      // Nor is it sent again on request: a new ping is the way to try again.
      await expect(redeliverEndpointDelivery(merchant.ctx, { deliveryId: failed.delivery.id })).rejects.toMatchObject({
        code: "WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE",
      });
      expect(await db.event.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
    });
    await receiver.close();
  });

  it("answer a ping to a name on a private network without the address the name resolves to", async () => {
    const receiver = await startReceiver();
    const merchant = await buildMerchant();
    // Registered as in development (an API that allows loopback), dialled as in production.
    const endpoint = await endpointFor(merchant, receiver.url.replace("127.0.0.1", "localhost"), ["PAYMENT_COMPLETED"]);
    const api = createTestApp({ webhooks: { allowPrivateNetworks: true, testEventWaitMs: 10_000 } });
    const refusal = "the address of localhost is not public";
    await withWorker(workerConfig({ allowPrivateNetworks: false }), async () => {
      const { body } = await graphqlPostTo(
        api,
        merchant.apiKey,
        `mutation ($id: ID!) { webhookEndpointPing(id: $id) {
          ... on WebhookTestResult { outcome error delivery { state lastError attempts { outcome error } } } } }`,
        { id: endpoint.id },
      );
      expect(body.data!.webhookEndpointPing).toEqual({
        outcome: "REFUSED",
        error: refusal,
        delivery: { state: "REFUSED", lastError: refusal, attempts: [{ outcome: "REFUSED", error: refusal }] },
      });
    });
    expect(receiver.received).toHaveLength(0);
    await receiver.close();
  });

  it("disable an endpoint that fails every attempt for longer than its limit, and send it nothing until enabled", async () => {
    let status = 500;
    const receiver = await startReceiver(() => ({ status }));
    const merchant = await buildMerchant();
    const endpoint = await endpointFor(merchant, receiver.url, ["PAYMENT_COMPLETED"]);
    const failing = workerConfig({ retryDelaysMs: Array(20).fill(100), endpointDisableAfterMs: 500 });
    await withWorker(failing, async () => {
      await paid(merchant);
      const disabled = await until(
        () => db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }),
        (row) => !row.enabled,
        20_000,
        "the endpoint to be disabled",
      );
      expect(disabled.disabledReason).toMatch(/^every attempt failed since \d{4}-\d\d-\d\dT/);
      expect(disabled.failingSince!.getTime()).toBeLessThanOrEqual(disabled.disabledAt!.getTime() - 500);
      expect(await endpointHealth(disabled, new Date())).toMatchObject({
        successShareLastDay: 0,
        failingSince: disabled.failingSince,
        lastOutcome: "FAILED",
      });
      const held = await until(
        () => db.delivery.findMany({ where: { endpointId: endpoint.id } }),
        (rows) => rows.every((row) => row.state === "HELD"),
      );
      expect(held).toHaveLength(1);
      // As docs/api.md says to bring it back: recover since it began failing. The event whose first
      // attempt set that time was made a moment before it, and is recovered all the same.
      const since = disabled.failingSince!;
      expect(disabled.disabledReason).toBe(`every attempt failed since ${since.toISOString()}`);
      expect(held[0]!.createdAt.getTime()).toBeLessThan(since.getTime());

      // While disabled, new events are held for it, not sent; its health still shows its last attempt.
      await Promise.all(Array.from({ length: 21 }, () => paid(merchant)));
      const whileDisabled = await db.delivery.findMany({ where: { endpointId: endpoint.id } });
      expect(whileDisabled).toHaveLength(22);
      expect(whileDisabled.every((row) => row.state === "HELD")).toBe(true);
      expect(await endpointHealth(disabled, new Date())).toMatchObject({ lastOutcome: "FAILED" });
      await expect(recoverWebhookDeliveries(merchant.ctx, { endpointId: endpoint.id, since })).rejects.toMatchObject({
        code: "WEBHOOK_ENDPOINT_DISABLED",
      });

      status = 200;
      const enabled = await updateWebhookEndpoint(merchant.ctx, { endpointId: endpoint.id, enabled: true }, loopback);
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
      expect(await recoverWebhookDeliveries(merchant.ctx, { endpointId: endpoint.id, since })).toMatchObject({ queued: 22 });
      const recovered = await until(
        () => db.delivery.findMany({ where: { endpointId: endpoint.id } }),
        (rows) => rows.every((row) => row.state === "DELIVERED"),
      );
      // Held deliveries go on with their schedule: a recovery does not cut them to one attempt.
      expect(recovered.map((row) => row.attemptLimit)).toEqual(recovered.map(() => null));
      const after = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(after).toMatchObject({ enabled: true, failingSince: null });
      expect(await endpointHealth(after, new Date())).toMatchObject({ lastOutcome: "DELIVERED", failingSince: null });
    });
    await receiver.close();
  });
});
