import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { onRequestChange } from "../domain/requests/changes.js";
import { pendingDeliveries, webhookAttemptsByOutcome } from "../domain/deliveries/outbox.js";

/**
 * The API process's Prometheus registry. HTTP traffic is counted by http/, GraphQL operations by
 * Yoga's Prometheus plugin (graphql/yoga.ts), payments and refunds as the domain announces them,
 * and the webhook outbox is read from PostgreSQL at scrape time (the worker's truth).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: "payreq_" });

export const httpRequests = new Counter({
  name: "payreq_http_requests_total",
  help: "HTTP requests by route, method and status.",
  labelNames: ["route", "method", "status"] as const,
  registers: [metricsRegistry],
});

export const httpLatency = new Histogram({
  name: "payreq_http_request_duration_seconds",
  help: "HTTP request latency by route.",
  labelNames: ["route", "method"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

const requestChanges = new Counter({
  name: "payreq_request_changes_total",
  help: "Payments (PAID), refunds (REFUNDED), cancellations and expiries made by this process.",
  labelNames: ["change"] as const,
  registers: [metricsRegistry],
});
onRequestChange((change) => requestChanges.inc({ change: change.change }));

// Read from the one database by every API process: where the supervisor sums its processes'
// metrics (scripts/start/cluster-metrics.ts), these are taken once, not summed.
new Gauge({
  name: "payreq_webhook_backlog",
  help: "Webhook events waiting for delivery.",
  registers: [metricsRegistry],
  aggregator: "first",
  async collect() {
    this.set(await pendingDeliveries());
  },
});

new Gauge({
  name: "payreq_webhook_attempts",
  help: "Webhook delivery attempts recorded, by outcome.",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
  aggregator: "first",
  async collect() {
    this.reset();
    for (const { outcome, count } of await webhookAttemptsByOutcome()) this.set({ outcome }, count);
  },
});
