import { built } from "../built.js";
import { spawn } from "node:child_process";
import { Redis } from "ioredis";
import { pool } from "../../src/db.js";
import { db } from "../prisma.js";
import { describe, expect, it } from "vitest";
import { payRequest } from "../../src/domain/requests/pay.js";
import { testEnv } from "../../vitest.config.js";
import { buildRequest, payer } from "../factories.js";
import { releaseLostClaims } from "../../src/domain/deliveries/claim.js";
import { deliveryJobs } from "../../worker/jobs/queue-due-attempts.js";
import { createQueue, WEBHOOK_QUEUE, type WebhookJobData } from "../../worker/queues.js";
import { eventOf, keptLog, startReceiver, until, verifyNotifications, withWorker, workerConfig } from "./harness.js";

/**
 * Redis loses one worker's queues: every key under its prefix is deleted, as a flush would, while
 * the rest of the shared test Redis (other files' counters and queues) stays as it was.
 */
async function loseQueues(prefix: string) {
  const redis = new Redis(testEnv.REDIS_URL);
  try {
    let deleted = 0;
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length) deleted += await redis.del(...keys);
    }
    return deleted;
  } finally {
    await redis.quit();
  }
}

async function paidPurchase(notifyUrl: string) {
  const { request } = await buildRequest({ notifyUrl });
  return (await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" })).purchase!;
}

describe("webhook delivery under faults", () => {
  it("delivers every pending event after Redis loses its queue", async () => {
    const receiver = await startReceiver((i) => ({ status: i < 3 ? 503 : 200 }));
    const config = workerConfig({ retryDelaysMs: [1_000, 50, 50, 50, 50, 50, 50] });
    // Should this case fail, its message carries what the worker logged.
    const log = keptLog();
    await withWorker(
      config,
      async () => {
        const purchases = await Promise.all([paidPurchase(receiver.url), paidPurchase(receiver.url), paidPurchase(receiver.url)]);
        // Each event fails once and waits for its retry; then Redis loses the worker's queues.
        await until(
          () => receiver.received.length,
          (n) => n >= 3,
        );
        expect(await loseQueues(config.queues.prefix)).toBeGreaterThan(0);

        const events = await until(
          () => Promise.all(purchases.map((p) => eventOf(p.id))),
          (all) => all.every((e) => e.state === "DELIVERED"),
          20_000,
        ).catch((err: Error) => {
          throw new Error(`${err.message}\nThe worker logged:\n${log.lines.join("")}`);
        });
        expect(events.map((e) => e.state)).toEqual(["DELIVERED", "DELIVERED", "DELIVERED"]);
        const jtis = (await verifyNotifications(receiver.received.slice(3).map((r) => r.token))).map((claims) => claims.jti);
        expect(new Set(jtis)).toEqual(new Set(events.map((e) => e.id)));
      },
      log.logger,
    );
    await receiver.close();
    // Longer than its waits: when one runs out, its message shows the events' states, and the
    // worker is closed before the next test starts (a test timeout would leave it delivering).
  });

  it("delivers an event whose queued job lost its data while keeping its place (a partial loss)", async () => {
    const receiver = await startReceiver();
    const config = workerConfig();
    const purchase = await paidPurchase(receiver.url);
    const { id, destination } = await eventOf(purchase.id);
    // The event was given its job, as the outbox's poll does; then Redis lost the job's hash, while
    // its id stayed in the waiting list.
    const redis = new Redis(testEnv.REDIS_URL);
    const webhooks = createQueue<WebhookJobData>(WEBHOOK_QUEUE, redis, config.queues.prefix);
    try {
      await pool.query("UPDATE delivery SET enqueued_at = now() WHERE id = $1", [id]);
      const [job] = await webhooks.addBulk(deliveryJobs([{ eventId: id, attempt: 1, destination }]));
      expect(await redis.del(`${config.queues.prefix}:webhooks:${job!.id}`)).toBe(1);
      expect(await webhooks.getWaitingCount()).toBe(1);
    } finally {
      await webhooks.close();
      await redis.quit();
    }

    await withWorker(config, async () => {
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
        15_000,
      );
      expect(event.deliveryAttempts.map((a) => a.outcome)).toEqual(["DELIVERED"]);
      expect(receiver.of(id)).toHaveLength(1);
    });
    await receiver.close();
  });

  it("delivers a new event whose job's id holds a leftover hash (Redis lost its id counter)", async () => {
    const receiver = await startReceiver();
    const config = workerConfig();
    const purchase = await paidPurchase(receiver.url);
    const { id } = await eventOf(purchase.id);
    // What BullMQ's move to active leaves of a job whose hash was lost: no name, no data, in no
    // list, under the id the queue's first job gets.
    const redis = new Redis(testEnv.REDIS_URL);
    try {
      await redis.hset(`${config.queues.prefix}:webhooks:1`, { processedOn: Date.now(), ats: 1 });
    } finally {
      await redis.quit();
    }

    await withWorker(config, async () => {
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
        15_000,
      );
      expect(event.deliveryAttempts.map((a) => a.outcome)).toEqual(["DELIVERED"]);
      expect(receiver.of(id)).toHaveLength(1);
    });
    await receiver.close();
  });

  it("sends a notification once when a second job for its event runs while its attempt is in flight", async () => {
    // After an outage (a Redis failover, a restart), the outbox's poll gives a job again to an event
    // whose first job had not run yet; once Redis is back, both run at once. The receiver holds the first
    // call for half a second (within the attempt timeout): the second job runs while it waits.
    const receiver = await startReceiver((i) => ({ delayMs: i === 0 ? 500 : 0 }));
    const config = workerConfig();
    await withWorker(config, async () => {
      const purchase = await paidPurchase(receiver.url);
      await until(
        () => receiver.received.length,
        (n) => n === 1,
      );
      const { id, destination } = await eventOf(purchase.id);
      const webhooks = createQueue<WebhookJobData>(WEBHOOK_QUEUE, new Redis(testEnv.REDIS_URL), config.queues.prefix);
      try {
        const [added] = await webhooks.addBulk(deliveryJobs([{ eventId: id, attempt: 1, destination }]));
        await until(
          () => webhooks.getJobState(added!.id!),
          (state) => state === "unknown",
        );
      } finally {
        await webhooks.close();
      }
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
      );
      expect(receiver.of(id)).toHaveLength(1);
      expect(event.deliveryAttempts.map((a) => a.outcome)).toEqual(["DELIVERED"]);
    });
    await receiver.close();
  });

  it("gives no second job to events whose job only waits its turn behind slow deliveries", async () => {
    // One job in flight at a time, each of 10 attempts held 300 ms by the receiver: the later jobs
    // wait longer than the poll's interval, and are not taken for lost.
    const receiver = await startReceiver(() => ({ delayMs: 300 }));
    const config = workerConfig({ concurrency: 1, reconcileIntervalMs: 100 });
    const log = keptLog();
    await withWorker(
      config,
      async () => {
        const purchases = await Promise.all(Array.from({ length: 25 }, () => paidPurchase(receiver.url)));
        const events = await until(
          () => Promise.all(purchases.map((p) => eventOf(p.id))),
          (all) => all.every((e) => e.state === "DELIVERED"),
          20_000,
        );
        for (const event of events) expect(receiver.of(event.id)).toHaveLength(1);
      },
      log.logger,
    );
    expect(log.lines.filter((line) => line.includes("whose job was lost"))).toEqual([]);
    await receiver.close();
  });

  it("takes back lost claims without waiting for one that another statement holds", async () => {
    // Two deliveries claimed an hour ago whose jobs never ran (no worker here), one of them held by
    // another transaction, as a batch of attempts holds its deliveries while it starts them.
    const [held, free] = await Promise.all([paidPurchase("http://127.0.0.1:9/never"), paidPurchase("http://127.0.0.1:9/never")]);
    const ids = [(await eventOf(held.id)).id, (await eventOf(free.id)).id];
    await pool.query("UPDATE delivery SET enqueued_at = now() - interval '1 hour' WHERE id = ANY($1::uuid[])", [ids]);
    const holder = await pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM delivery WHERE id = $1 FOR UPDATE", [ids[0]]);
      const claimedOf = async () => (await Promise.all([eventOf(held.id), eventOf(free.id)])).map((e) => e.enqueuedAt !== null);
      // Waiting for the held row would hang here until the holder commits (and, with the holder
      // waiting for a row this statement took, was a deadlock): the guard fails the test instead.
      let guard: NodeJS.Timeout | undefined;
      const waited = new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error("releaseLostClaims waited for a delivery another statement holds")), 10_000);
      });
      await Promise.race([releaseLostClaims(new Date(), new Date()), waited]).finally(() => clearTimeout(guard));
      expect(await claimedOf()).toEqual([true, false]);
      await holder.query("COMMIT");
      await releaseLostClaims(new Date(), new Date());
      expect(await claimedOf()).toEqual([false, false]);
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      holder.release();
    }
  });

  it("delivers an event whose worker was killed with SIGKILL mid-delivery", async () => {
    // The first call hangs past the kill; later calls answer at once. The kill must come before the
    // attempt's timeout, or the attempt ends (and is retried) first: 3 s leaves room on a busy machine
    // (with 1 s it failed once here, right after a full suite run had loaded the machine).
    const receiver = await startReceiver((i) => ({ delayMs: i === 0 ? 60_000 : 0 }));
    const config = workerConfig({ timeoutMs: 3_000 });
    const child = spawn(process.execPath, [...built("worker/index.ts")], {
      env: {
        ...process.env,
        QUEUE_PREFIX: config.queues.prefix,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        WEBHOOK_TIMEOUT: "3s",
        WEBHOOK_RETRY_DELAYS: "50,50,50,50,50,50,50",
        WEBHOOK_RECONCILE_INTERVAL: "300",
        WEBHOOK_ISSUER: "payreq-test",
      },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));

    const purchase = await paidPurchase(receiver.url);
    await until(
      () => receiver.received.length,
      (n) => n >= 1,
      20_000,
    );
    expect(receiver.received).toHaveLength(1);
    child.kill("SIGKILL");
    await exited;

    await withWorker(config, async () => {
      const event = await until(
        () => eventOf(purchase.id),
        (e) => e.state === "DELIVERED",
        30_000,
      );
      expect(event.state).toBe("DELIVERED");
      const jtis = (await verifyNotifications(receiver.received.map((r) => r.token))).map((claims) => claims.jti);
      expect(new Set(jtis)).toEqual(new Set([event.id]));
      // The attempt cut off by the kill was recorded before its POST: one attempt row per POST.
      const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: event.id }, orderBy: { number: "asc" } });
      expect(attempts).toHaveLength(receiver.received.length);
      expect(attempts[0]).toMatchObject({ number: 1, outcome: "IN_FLIGHT", durationMs: null });
      expect(attempts.at(-1)).toMatchObject({ outcome: "DELIVERED" });
      expect(event.attempts).toBe(attempts.length);
    });
    await receiver.close();
  });
});
