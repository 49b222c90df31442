import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { redeliverNotification } from "../../src/domain/deliveries/redeliver.js";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { rotateSigningKey } from "../../src/domain/webhooks/key-files.js";
import { buildRequest, payer } from "../factories.js";
import { fileEnv } from "../service-processes.js";
import { eventOf, startReceiver, until, verifyNotification, verifyNotifications, withWorker, workerConfig } from "./harness.js";

/** A request paid on test.uplink whose notifyUrl is the receiver. */
async function paidRequest(notifyUrl: string, amount = 1200) {
  const { merchant, request } = await buildRequest({ amount, notifyUrl, externalReference: `ord-${Math.random()}` });
  const paid = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
  return { merchant, request: paid, purchase: paid.purchase! };
}

/**
 * A later notification through the same worker to the same receiver: once it has `reached` the
 * state given, the worker has also done whatever it was still going to do with earlier events, so
 * "nothing more arrived" is checked after something did, not after a sleep.
 */
async function marker(notifyUrl: string, reached: (event: Awaited<ReturnType<typeof eventOf>>) => boolean) {
  const { purchase } = await paidRequest(notifyUrl);
  return until(() => eventOf(purchase.id), reached, 15_000, `the marker notification ${purchase.id} to be handled`);
}

describe("webhook delivery", () => {
  it("delivers a PURCHASE as an ES256 JWT that verifies with the published JWKS", async () => {
    const receiver = await startReceiver();
    await withWorker(workerConfig(), async () => {
      const { request, purchase } = await paidRequest(receiver.url);
      await until(
        () => receiver.received.length,
        (n) => n >= 1,
      );
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.headers["content-type"]).toBe("application/json");

      const claims = await verifyNotification(receiver.received[0]!.token);
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
      );
      expect(claims.jti).toBe(event.id);
      expect(claims.iat).toBeTypeOf("number");
      expect(claims.transaction).toMatchObject({
        transactionId: purchase.id,
        transactionType: "PURCHASE",
        state: "completed",
        amount: 1200,
        ledger: "test.uplink",
        request: { requestId: request.id, merchantId: request.merchantId, denomination: { asset: "NZD", amount: 1200 } },
      });
      expect(event.deliveryAttempts).toMatchObject([{ number: 1, outcome: "DELIVERED", statusCode: 200, responseExcerpt: "ok" }]);
    });
    await receiver.close();
  });

  it("delivers a REFUND too", async () => {
    const receiver = await startReceiver();
    await withWorker(workerConfig(), async () => {
      const { merchant, purchase } = await paidRequest(receiver.url);
      const refund = await refundTransaction(merchant.ctx, { transactionId: purchase.id, amount: 200 });
      await until(
        () => receiver.received.length,
        (n) => n >= 2,
      );
      const transactions = (await verifyNotifications(receiver.received.map((r) => r.token))).map((claims) => claims.transaction);
      expect(transactions.find((t) => t.transactionType === "REFUND")).toMatchObject({ transactionId: refund.id, amount: 200 });
    });
    await receiver.close();
  });

  it("retries a failing receiver on the schedule: two failures then 200 is exactly 3 attempts, same jti", async () => {
    const receiver = await startReceiver((i) => ({ status: i < 2 ? 503 : 200 }));
    const delays = [300, 600, 50, 50, 50, 50, 50];
    await withWorker(workerConfig({ retryDelaysMs: delays }), async () => {
      const { purchase } = await paidRequest(receiver.url);
      await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
      );
      // The receiver answers the marker (its 4th call) 200 too.
      await marker(receiver.url, (e) => e.state === "DELIVERED");
      const event = await eventOf(purchase.id);
      expect(receiver.of(event.id)).toHaveLength(3);
      expect(receiver.received).toHaveLength(4);
      expect(event.attempts).toBe(3);
      expect(event.deliveryAttempts.map((a) => [a.outcome, a.statusCode])).toEqual([
        ["FAILED", 503],
        ["FAILED", 503],
        ["DELIVERED", 200],
      ]);
      const [first, second, third] = receiver.of(event.id).map((r) => r.at);
      expect(second! - first!).toBeGreaterThanOrEqual(delays[0]!);
      expect(third! - second!).toBeGreaterThanOrEqual(delays[1]!);
      const jtis = (await verifyNotifications(receiver.received.slice(0, 3).map((r) => r.token))).map((claims) => claims.jti);
      expect(new Set(jtis)).toEqual(new Set([event.id]));
    });
    await receiver.close();
  });

  it("gives up after exactly 8 attempts and marks the event exhausted", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    await withWorker(workerConfig(), async () => {
      const { purchase } = await paidRequest(receiver.url);
      await until(
        () => eventOf(purchase.id),
        (e) => e.state === "EXHAUSTED",
      );
      // The marker fails too; its first attempt is enough.
      await marker(receiver.url, (e) => e.attempts >= 1);
      const event = await eventOf(purchase.id);
      expect(event.state).toBe("EXHAUSTED");
      expect(event.deliveryAttempts).toHaveLength(8);
      expect(receiver.of(event.id)).toHaveLength(8);
    });
    await receiver.close();
  });

  it("counts an answer slower than the timeout as a failure", async () => {
    const receiver = await startReceiver((i) => ({ delayMs: i === 0 ? 800 : 0 }));
    await withWorker(workerConfig({ timeoutMs: 300 }), async () => {
      const { purchase } = await paidRequest(receiver.url);
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
      );
      expect(event.deliveryAttempts.map((a) => a.outcome)).toEqual(["FAILED", "DELIVERED"]);
      expect(event.deliveryAttempts[0]!.error).toContain("300 ms");
    });
    await receiver.close();
  });

  it("refuses a private-network destination when private networks are not allowed, without retrying", async () => {
    const receiver = await startReceiver();
    await withWorker(workerConfig({ allowPrivateNetworks: false }), async () => {
      const { purchase } = await paidRequest(receiver.url);
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state !== "PENDING",
      );
      expect(event.state).toBe("REFUSED");
      // Not retried: once a later event to the same place is refused too, the first still has one attempt.
      await marker(receiver.url, (e) => e.state === "REFUSED");
      expect((await eventOf(purchase.id)).deliveryAttempts).toMatchObject([
        { outcome: "REFUSED", error: expect.stringContaining("127.0.0.1") },
      ]);
      expect(receiver.received).toHaveLength(0);
    });
    await receiver.close();
  });

  it("redelivers an exhausted event once on request, with the same jti", async () => {
    const receiver = await startReceiver((i) => ({ status: i < 8 ? 500 : 200 }));
    await withWorker(workerConfig(), async () => {
      const { merchant, purchase } = await paidRequest(receiver.url);
      const exhausted = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "EXHAUSTED",
      );
      await redeliverNotification(merchant.ctx, { eventId: exhausted.id });
      const delivered = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
      );
      expect((await verifyNotification(receiver.received.at(-1)!.token)).jti).toBe(exhausted.id);
      // Once: after a later notification is delivered, still 9 attempts and 9 calls.
      await marker(receiver.url, (e) => e.state === "DELIVERED");
      const event = await eventOf(purchase.id);
      expect(event).toMatchObject({ id: delivered.id, state: "DELIVERED", attempts: 9 });
      expect(event.deliveryAttempts).toHaveLength(9);
      expect(receiver.of(exhausted.id)).toHaveLength(9);
    });
    await receiver.close();
  });

  it("still verifies a token signed before a key rotation while the old key overlaps", async () => {
    const receiver = await startReceiver();
    const kid = (token: string) => decodeProtectedHeader(token).kid!;
    const [before, after] = await withWorker(workerConfig(), async () => {
      await paidRequest(receiver.url);
      await until(
        () => receiver.received.length,
        (n) => n >= 1,
      );
      const before = receiver.received[0]!.token;

      const rotated = await rotateSigningKey(fileEnv.WEBHOOK_SIGNING_KEY_DIR, 3_600_000);
      expect((await verifyNotification(before)).jti).toBeTruthy();

      // New notifications are signed with the new key: the worker re-reads the current key once its
      // cache lapses (keyCacheMs: 5 s by default, 0 here, so at the next signature).
      await paidRequest(receiver.url);
      await until(
        () => receiver.received.length,
        (n) => n >= 2,
      );
      const after = receiver.received[1]!.token;
      expect(kid(after)).not.toBe(kid(before));
      expect(kid(after)).toBe(rotated.kid);
      await verifyNotification(after);
      return [before, after];
    });
    // Both stay published: the new key current, the old one retired but inside its overlap.
    const keys = await db.signingKey.findMany({ where: { kid: { in: [kid(before), kid(after)] } } });
    expect(keys).toHaveLength(2);
    expect(keys.find((k) => k.kid === kid(after))!.retiredAt).toBeNull();
    expect(keys.find((k) => k.kid === kid(before))!.publishedUntil!.getTime()).toBeGreaterThan(Date.now());
    await receiver.close();
  });
});
