/**
 * Retention sweeps, in this file's own database (a sweep deletes across every tenant, so it must
 * not run where other files keep their data), with an injected clock: each deletes exactly what is
 * past its retention, in batches, and the worker runs them on its schedule and counts what they remove.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pool, toUtcText as utc } from "../../src/db.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { sweepExpiredData } from "../../src/domain/retention/sweeps.js";
import { buildEndpoint, buildMerchant, buildRequest, payer } from "../factories.js";
import { until, withWorker, workerConfig } from "./harness.js";

const DAY = 86_400_000;
const NOW = new Date("2027-06-01T00:00:00.000Z");
const daysAgo = (days: number) => utc(new Date(NOW.getTime() - days * DAY));

/** A paid request whose notification is in the outbox, then aged and finished as given (no worker delivers here). */
async function notification(
  state: "PENDING" | "DELIVERED" | "EXHAUSTED" | "REFUSED",
  lastChangedDaysAgo: number,
  attempts: number,
) {
  const { request } = await buildRequest({ notifyUrl: "http://127.0.0.1:9/hook" });
  const paid = await payRequest(payer, { requestId: request.id, ledger: "test.uplink", authorization: "ok" });
  const { rows } = await pool.query<{ id: string }>(
    "UPDATE delivery SET state = $2, updated_at = $3, created_at = $3 WHERE transaction_id = $1 RETURNING id",
    [paid.purchase!.id, state, daysAgo(lastChangedDaysAgo)],
  );
  const deliveryId = rows[0]!.id;
  for (let number = 1; number <= attempts; number++)
    await pool.query(
      "INSERT INTO webhook_attempt (id, delivery_id, number, started_at, duration_ms, outcome, status_code) VALUES ($1, $2, $3, $4, 12, 'FAILED', 500)",
      [randomUUID(), deliveryId, number, daysAgo(lastChangedDaysAgo)],
    );
  return deliveryId;
}

/** A key that expired `expiresDaysAgo` days before `now` (NOW, the sweeps' injected clock, unless given). */
async function idempotencyKey(expiresDaysAgo: number, now = NOW) {
  const key = randomUUID();
  const at = (days: number) => utc(new Date(now.getTime() - days * DAY));
  await pool.query(
    "INSERT INTO idempotency_key (api_key_prefix, key, fingerprint, created_at, expires_at) VALUES ('pk_retention', $1, 'f', $2, $3)",
    [key, at(expiresDaysAgo + 1), at(expiresDaysAgo)],
  );
  return key;
}

async function activity(daysOld: number) {
  const id = randomUUID();
  await pool.query(
    "INSERT INTO activity (id, action, actor, outcome, created_at) VALUES ($1, 'key.created', 'operator', 'x', $2)",
    [id, daysAgo(daysOld)],
  );
  return id;
}

const remaining = async (table: string, ids: string[], column = "id") =>
  (await pool.query<{ id: string }>(`SELECT ${column}::text AS id FROM ${table} WHERE ${column}::text = ANY($1)`, [ids])).rows
    .map((row) => row.id)
    .sort();

describe("retention sweeps", () => {
  it("delete expired idempotency keys and finished notifications past WEBHOOK_RETENTION with their attempts, never a pending one", async () => {
    // Whatever earlier setup left in this file's database is older or newer than what is made here:
    // the assertions read only this test's rows, the counts only what this sweep removed.
    const keys = { expired: [await idempotencyKey(2), await idempotencyKey(0.01)], live: [await idempotencyKey(-0.5)] };
    const events = {
      old: [
        await notification("DELIVERED", 91, 1),
        await notification("EXHAUSTED", 120, 8),
        await notification("REFUSED", 95, 0),
      ],
      kept: [await notification("DELIVERED", 89, 2), await notification("PENDING", 400, 3), await notification("PENDING", 1, 0)],
    };
    const trail = [await activity(1000), await activity(1)];

    const before = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_attempt");
    // Batches of two: several statements per sweep, each stopping at a short batch.
    const counts = await sweepExpiredData(NOW, { webhookRetentionMs: 90 * DAY, activityRetentionMs: null, batchSize: 2 });

    expect(await remaining("idempotency_key", [...keys.expired, ...keys.live], "key")).toEqual([...keys.live].sort());
    expect(await remaining("delivery", [...events.old, ...events.kept])).toEqual([...events.kept].sort());
    expect(await remaining("webhook_attempt", [...events.old, ...events.kept], "delivery_id")).toEqual(
      [events.kept[0], events.kept[0], events.kept[1], events.kept[1], events.kept[1]].sort(),
    );
    // The audit trail is kept unless ACTIVITY_RETENTION is set.
    expect(await remaining("activity", trail)).toEqual([...trail].sort());
    expect(counts).toMatchObject({ webhook_event: 3, webhook_attempt: 9, activity: 0 });
    expect(counts.idempotency_key).toBeGreaterThanOrEqual(2);
    const after = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_attempt");
    expect(before.rows[0]!.n - after.rows[0]!.n).toBe(9);

    // Run again: nothing more is due.
    expect(await sweepExpiredData(NOW, { webhookRetentionMs: 90 * DAY, activityRetentionMs: null, batchSize: 2 })).toEqual({
      idempotency_key: 0,
      webhook_event: 0,
      webhook_attempt: 0,
      event: 0,
      webhook_destination: 0,
      activity: 0,
    });
  });

  it("delete endpoint deliveries as notifications, and events once past WEBHOOK_RETENTION with no delivery left", async () => {
    const merchant = await buildMerchant();
    const endpoint = await buildEndpoint(merchant);
    /** A payment's event, made `eventDaysAgo` days ago, and its delivery to the endpoint, last changed as given. */
    async function delivered(eventDaysAgo: number, state: "PENDING" | "DELIVERED" | "HELD", lastChangedDaysAgo: number) {
      const { request } = await buildRequest({ merchant });
      await payRequest(payer, { requestId: request.id, ledger: "test.uplink", authorization: "ok" });
      const { rows } = await pool.query<{ event: string; delivery: string }>(
        `WITH ev AS (UPDATE event SET created_at = $2 WHERE request_id = $1 RETURNING id)
         UPDATE delivery d SET state = $3, updated_at = $4, created_at = $2 FROM ev WHERE d.event_id = ev.id
         RETURNING ev.id::text AS event, d.id::text AS delivery`,
        [request.id, daysAgo(eventDaysAgo), state, daysAgo(lastChangedDaysAgo)],
      );
      return rows[0]!;
    }
    const gone = [await delivered(100, "DELIVERED", 91), await delivered(100, "HELD", 95)];
    const pending = await delivered(400, "PENDING", 400);
    const recent = await delivered(10, "DELIVERED", 10);

    const counts = await sweepExpiredData(NOW, { webhookRetentionMs: 90 * DAY, activityRetentionMs: null, batchSize: 2 });

    const all = [...gone, pending, recent];
    expect(
      await remaining(
        "delivery",
        all.map((d) => d.delivery),
      ),
    ).toEqual([pending.delivery, recent.delivery].sort());
    expect(
      await remaining(
        "event",
        all.map((d) => d.event),
      ),
    ).toEqual([pending.event, recent.event].sort());
    expect(counts.webhook_event).toBeGreaterThanOrEqual(2);
    expect(counts.event).toBeGreaterThanOrEqual(2);
    expect(await remaining("webhook_endpoint", [endpoint.id])).toEqual([endpoint.id]);
  });

  it("forget a destination's health once unchanged for WEBHOOK_RETENTION, unless a delivery there is pending", async () => {
    const merchant = await buildMerchant();
    const idle = await buildEndpoint(merchant);
    const busy = await buildEndpoint(merchant);
    const recent = await buildEndpoint(merchant);
    for (const [endpoint, days] of [
      [idle, 91],
      [busy, 91],
      [recent, 10],
    ] as const)
      await pool.query(
        "INSERT INTO webhook_destination (id, merchant_id, failures, quick, updated_at) VALUES ($1, $2, 5, false, $3)",
        [endpoint.id, merchant.merchantId, daysAgo(days)],
      );
    // A payment: a pending delivery to each endpoint; then only `busy`'s stays pending.
    const { request } = await buildRequest({ merchant });
    await payRequest(payer, { requestId: request.id, ledger: "test.uplink", authorization: "ok" });
    await pool.query("UPDATE delivery SET state = 'DELIVERED' WHERE request_id = $1 AND endpoint_id <> $2", [
      request.id,
      busy.id,
    ]);

    const counts = await sweepExpiredData(NOW, { webhookRetentionMs: 90 * DAY, activityRetentionMs: null, batchSize: 2 });

    expect(await remaining("webhook_destination", [idle.id, busy.id, recent.id])).toEqual([busy.id, recent.id].sort());
    expect(counts.webhook_destination).toBeGreaterThanOrEqual(1);
  });

  it("delete activity older than ACTIVITY_RETENTION when it is set", async () => {
    const old = [await activity(400), await activity(366)];
    const young = [await activity(364), await activity(0)];
    const counts = await sweepExpiredData(NOW, { webhookRetentionMs: 90 * DAY, activityRetentionMs: 365 * DAY, batchSize: 1 });
    expect(await remaining("activity", [...old, ...young])).toEqual([...young].sort());
    expect(counts.activity).toBeGreaterThanOrEqual(2);
  });

  it("run in the worker on their schedule, which counts the rows each removes in its metrics", async () => {
    // The worker sweeps by its own clock.
    const key = await idempotencyKey(1, new Date());
    const config = workerConfig(
      {},
      {
        retention: { sweepIntervalMs: 200, webhookRetentionMs: 90 * DAY, activityRetentionMs: null, batchSize: 1000 },
        metrics: { port: 0, host: "127.0.0.1" },
      },
    );
    await withWorker(config, async (worker) => {
      await until(
        () => remaining("idempotency_key", [key], "key"),
        (left) => left.length === 0,
      );
      // The sweep counts its rows once all its tables are swept, a moment after this key went.
      const counted = await until(
        async () => {
          const metrics = await (await fetch(`http://127.0.0.1:${worker.metricsPort!}/metrics`)).text();
          return Number(/payreq_retention_deleted_rows_total\{table="idempotency_key"\} (\d+)/.exec(metrics)?.[1] ?? 0);
        },
        (n) => n >= 1,
        5_000,
        "the sweep's count in the worker's metrics",
      );
      expect(counted).toBeGreaterThanOrEqual(1);
    });
  });
});
