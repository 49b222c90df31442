/**
 * Webhooks, to a receiver on loopback that answers 200 at once: the time from a pay's answer to its
 * notification when idle, how many notifications a second the worker delivers and records, and
 * beside it, in the same run, how many deliveries a second to webhook endpoints (endpoint-deliveries.ts).
 */
import type pg from "pg";
import { createBody, payBody, type Bench } from "./calls.js";
import { call, waitUntil } from "./load.js";
import type { BenchOptions } from "./options.js";
import { measureEndpointDeliveries } from "./endpoint-deliveries.js";
import { startLoopbackReceiver, deliveredPerSecond } from "./receiver.js";
import { percentile, ratio } from "./report.js";
import { WEBHOOK_CHANNEL } from "../src/domain/deliveries/outbox.js";

export interface WebhookFigures {
  p50: number;
  p99: number;
  deliveriesPerSecond: number;
  /** Deliveries to webhook endpoints a second, in a burst as large as the notifications'. */
  endpointDeliveriesPerSecond: number;
  /** endpointDeliveriesPerSecond / deliveriesPerSecond. */
  endpointToNotifyUrl: number | null;
}

/** A receiver on loopback that answers 200 at once and notes when each request's notification came. */
export async function startWebhookReceiver() {
  const arrivals = new Map<string, number>();
  const receiver = await startLoopbackReceiver((_path, token, at) => {
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
      transaction: { request: { requestId: string } };
    };
    arrivals.set(payload.transaction.request.requestId, at);
  });
  return { ...receiver, hookUrl: `${receiver.origin}/hook`, arrivals };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * Creates and pays a request of the bench's merchant that names the receiver; the milliseconds from
 * the pay's answer to the notification, which must come within `deadlineMs`.
 */
export async function notificationLatency(bench: Bench, receiver: WebhookReceiver, deadlineMs = 30_000): Promise<number> {
  const { api, headers, payerHeaders, merchantId } = bench;
  const created = await call<{ requestId: string }>(`${api}/api/requests.create`, {
    method: "POST",
    headers,
    body: createBody(merchantId, { notifyUrl: receiver.hookUrl }),
  });
  await call(`${api}/api/requests.pay`, { method: "POST", headers: payerHeaders, body: payBody(created.requestId) });
  const paidAt = Date.now();
  await waitUntil(
    () => `the notification of ${created.requestId}`,
    () => receiver.arrivals.has(created.requestId),
    deadlineMs,
    1,
  );
  return receiver.arrivals.get(created.requestId)! - paidAt;
}

/**
 * Delivers `count` new notifications at once and returns how many a second were delivered and
 * recorded: clones an outbox row in SQL (each clone with a transaction of its own), wakes the
 * workers, and times until every event is DELIVERED in PostgreSQL with its attempt recorded, not
 * just received. The outbox must hold a notification to the receiver already (notificationLatency).
 */
export async function deliveryBurst(sql: pg.Client, receiver: WebhookReceiver, count: number): Promise<number> {
  const [template] = (
    await sql.query("SELECT request_id, merchant_id, transaction_id, destination, payload FROM delivery WHERE url = $1 LIMIT 1", [
      receiver.hookUrl,
    ])
  ).rows as { request_id: string; merchant_id: string; transaction_id: string; destination: string; payload: unknown }[];
  if (!template) throw new Error("bench: no notification to the receiver to clone (make one with notificationLatency first)");
  await sql.query("DROP TABLE IF EXISTS ids");
  await sql.query(`CREATE TEMP TABLE ids AS SELECT gen_random_uuid() AS id FROM generate_series(1, ${count})`);
  await sql.query(
    `INSERT INTO "transaction" (id, type, request_id, merchant_id, ledger_id, amount, auth_code, response_code, payment_type, settlement_date, purchase_id, external_reference, updated_at)
     SELECT id, 'REFUND', $1, $2, 'test.uplink', 1, 'X', '00', 'test', now(), $3, id::text, now() FROM ids`,
    [template.request_id, template.merchant_id, template.transaction_id],
  );
  const started = Date.now();
  const arrivedBefore = receiver.arrived();
  await sql.query(
    `INSERT INTO delivery (id, merchant_id, request_id, transaction_id, url, destination, payload, updated_at)
     SELECT gen_random_uuid(), $1, $2, id, $3, $4, $5, now() FROM ids`,
    [template.merchant_id, template.request_id, receiver.hookUrl, template.destination, template.payload],
  );
  await sql.query("SELECT pg_notify($1, 'bench')", [WEBHOOK_CHANNEL]);
  return deliveredPerSecond({
    what: "notifications",
    count,
    started,
    received: () => receiver.arrived() - arrivedBefore,
    recorded: async () => {
      const { rows } = await sql.query(
        `SELECT count(*) FROM delivery e JOIN ids ON ids.id = e.transaction_id
         WHERE e.state = 'DELIVERED' AND EXISTS (SELECT 1 FROM webhook_attempt a WHERE a.delivery_id = e.id AND a.outcome = 'DELIVERED')`,
      );
      return Number((rows[0] as { count: string }).count);
    },
  });
}

export async function measureWebhooks(bench: Bench, options: BenchOptions, databaseUrl: string): Promise<WebhookFigures> {
  const receiver = await startWebhookReceiver();
  // One unmeasured notification first: with --only=webhooks the worker may still be starting.
  await notificationLatency(bench, receiver);
  const latencies: number[] = [];
  for (let i = 0; i < (options.quick ? 20 : 50); i++) latencies.push(await notificationLatency(bench, receiver));
  latencies.sort((a, b) => a - b);
  const latency = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  console.log(`  pay → notification received, idle: p50 ${latency.p50} ms, p99 ${latency.p99} ms`);

  // Unmeasured warm-up, as for the HTTP runs: the worker has delivered only a few notifications so far.
  await deliveryBurst(bench.sql, receiver, options.deliveries / 2);
  const deliveriesPerSecond = await deliveryBurst(bench.sql, receiver, options.deliveries);
  console.log(`  ${options.deliveries} notifications delivered at ${deliveriesPerSecond}/s (signed, every attempt recorded)`);
  receiver.close();

  const endpointDeliveriesPerSecond = await measureEndpointDeliveries(bench, databaseUrl, options.deliveries);
  console.log(
    `  ${options.deliveries} endpoint deliveries delivered at ${endpointDeliveriesPerSecond}/s ` +
      "(signed, every attempt recorded; every token verified, each endpoint had exactly the events of its types)",
  );
  const endpointToNotifyUrl = ratio(endpointDeliveriesPerSecond, deliveriesPerSecond);
  console.log(
    `  deliveries a second, this run: notifyUrl ${deliveriesPerSecond}, endpoints ${endpointDeliveriesPerSecond}; ` +
      `endpoints / notifyUrl ${endpointToNotifyUrl?.toFixed(2) ?? "n/a"}`,
  );
  return { ...latency, deliveriesPerSecond, endpointDeliveriesPerSecond, endpointToNotifyUrl };
}
