import type { Hono } from "hono";
import type { DocumentNode, OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { onRequestChange } from "../domain/requests/changes.js";
import { pendingWebhookEvents, webhookAttemptsByOutcome } from "../domain/webhooks/outbox.js";

/**
 * Prometheus metrics at GET /metrics: HTTP and GraphQL traffic, payments and refunds made by this
 * process, and the webhook outbox read from Postgres at scrape time (the worker's truth).
 * Serve it on an internal network only.
 */
const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "payreq_" });

const graphqlOperations = new Counter({
  name: "payreq_graphql_operations_total",
  help: "GraphQL operations by operation name, type and outcome (ok, or error when the result has errors).",
  labelNames: ["operation", "type", "outcome"] as const,
  registers: [registry],
});

/** A Yoga plugin counting GraphQL operations and the ones whose result carries errors. */
export function graphqlMetricsPlugin(): Plugin {
  return {
    onExecute({ args }) {
      const definition = (args.document as DocumentNode).definitions.find(
        (d): d is OperationDefinitionNode => d.kind === "OperationDefinition",
      );
      const labels = {
        operation: args.operationName ?? definition?.name?.value ?? "anonymous",
        type: definition?.operation ?? "query",
      };
      return {
        onExecuteDone({ result }) {
          const failed = "errors" in result && Array.isArray(result.errors) && result.errors.length > 0;
          graphqlOperations.inc({ ...labels, outcome: failed ? "error" : "ok" });
        },
      };
    },
  };
}

export function mountMetrics(app: Hono, knownOperations: Set<string>) {
  const requests = new Counter({
    name: "payreq_http_requests_total",
    help: "HTTP requests by route, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "payreq_http_request_duration_seconds",
    help: "HTTP request latency by route.",
    labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const changes = new Counter({
    name: "payreq_request_changes_total",
    help: "Payments (PAID), refunds (REFUNDED), cancellations and expiries made by this process.",
    labelNames: ["change"] as const,
    registers: [registry],
  });
  onRequestChange((change) => changes.inc({ change: change.change }));

  new Gauge({
    name: "payreq_webhook_backlog",
    help: "Webhook events waiting for delivery.",
    registers: [registry],
    async collect() {
      this.set(await pendingWebhookEvents());
    },
  });
  new Gauge({
    name: "payreq_webhook_attempts",
    help: "Webhook delivery attempts recorded, by outcome.",
    labelNames: ["outcome"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { outcome, count } of await webhookAttemptsByOutcome()) this.set({ outcome }, count);
    },
  });

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const operation = path.startsWith("/api/") ? path.slice(5) : null;
    const route =
      operation !== null ? (knownOperations.has(operation) ? operation : "unknown") : path === "/graphql" ? "graphql" : "other";
    requests.inc({ route, method: c.req.method, status: String(c.res.status) });
    latency.observe({ route, method: c.req.method }, (performance.now() - started) / 1000);
  });
  app.get("/metrics", async (c) => c.body(await registry.metrics(), 200, { "content-type": registry.contentType }));
}
