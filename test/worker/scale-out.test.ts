import { built } from "../built.js";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { pool } from "../../src/db.js";
import { db } from "../prisma.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { buildRequest, payer } from "../factories.js";
import { startReceiver, until, verifyNotifications } from "./harness.js";

/** A worker process on this file's database and the given queue prefix, counting the deliveries it logs. */
function startWorkerProcess(prefix: string) {
  const child = spawn(process.execPath, [...built("worker/index.ts")], {
    env: {
      ...process.env,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: "info",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_ISSUER: "payreq-test",
      WEBHOOK_RECONCILE_INTERVAL: "1s",
      // A lease of 65 s (deliveryLeaseMs): while other work kept both cores busy, an attempt of these
      // processes outlived the default 15 s between its start and its record, and was made again.
      WEBHOOK_TIMEOUT: "60s",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const seen = { ready: false, delivered: 0 };
  createInterface({ input: child.stdout }).on("line", (line) => {
    const { msg } = JSON.parse(line) as { msg?: string };
    if (msg === "worker ready") seen.ready = true;
    if (msg === "webhook delivered") seen.delivered += 1;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { seen, stop: () => (child.kill("SIGTERM"), exited) };
}

describe("two worker processes on one database and Redis", () => {
  it("share a burst of 500 notifications: each delivered once, every attempt recorded", async () => {
    const receiver = await startReceiver();
    const prefix = `test-${randomUUID()}`;
    const workers = [startWorkerProcess(prefix), startWorkerProcess(prefix)];
    try {
      await until(
        () => workers.every((w) => w.seen.ready),
        (ready) => ready,
        20_000,
      );
      // One real purchase, then 500 refunds of it whose events are written at once, as a busy
      // API would leave them: every event its own transaction and jti.
      const { request } = await buildRequest({ notifyUrl: receiver.url });
      const purchase = (await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" })).purchase!;
      await pool.query(
        `WITH refunds AS (
           INSERT INTO "transaction" (id, type, request_id, merchant_id, ledger_id, amount, auth_code, response_code,
                                      payment_type, settlement_date, purchase_id, external_reference, updated_at)
           SELECT gen_random_uuid(), 'REFUND', request_id, merchant_id, ledger_id, 1, 'X', '00', 'test', now(), id,
                  'scale-' || n, now()
           FROM "transaction", generate_series(1, 500) AS n WHERE id = $1
           RETURNING id, request_id, merchant_id)
         INSERT INTO delivery (id, merchant_id, request_id, transaction_id, url, destination, payload, updated_at)
         SELECT gen_random_uuid(), r.merchant_id, r.request_id, r.id, e.url, e.destination, e.payload, now()
         FROM refunds r, delivery e WHERE e.transaction_id = $1`,
        [purchase.id],
      );
      await pool.query("SELECT pg_notify('webhook_events', 'burst')");

      const where = { requestId: request.id };
      await until(
        () => db.delivery.count({ where: { ...where, state: "DELIVERED" } }),
        (delivered) => delivered === 501,
        60_000,
      );
      const events = await db.delivery.findMany({ where, include: { deliveryAttempts: true } });
      expect(events).toHaveLength(501);
      for (const { attempts, deliveryAttempts } of events) {
        // Together, so that a second attempt shows what the first one met.
        expect({ attempts, deliveryAttempts }).toMatchObject({
          attempts: 1,
          deliveryAttempts: [{ number: 1, outcome: "DELIVERED", statusCode: 200 }],
        });
      }
      // The receiver got each notification exactly once, signed, with its event's id as jti.
      const jtis = (await verifyNotifications(receiver.received.map((r) => r.token))).map((claims) => claims.jti);
      expect(jtis).toHaveLength(501);
      expect(new Set(jtis)).toEqual(new Set(events.map((e) => e.id)));
      // Both processes took a share.
      await until(
        () => workers.map((w) => w.seen.delivered),
        (counts) => counts[0]! + counts[1]! === 501,
      );
      for (const worker of workers) expect(worker.seen.delivered).toBeGreaterThan(0);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.close();
    }
  }, 90_000);
});
