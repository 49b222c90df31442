import { Hono } from "hono";
import { httpLatency, httpRequests, metricsRegistry } from "../transport/metrics.js";

/** Counts every HTTP call by route (the dotted operation, `graphql`, `unknown` or `other`). */
export function countCalls(app: Hono, knownOperations: Set<string>) {
  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const operation = path.startsWith("/api/") ? path.slice(5) : null;
    const route =
      operation !== null ? (knownOperations.has(operation) ? operation : "unknown") : path === "/graphql" ? "graphql" : "other";
    httpRequests.inc({ route, method: c.req.method, status: String(c.res.status) });
    httpLatency.observe({ route, method: c.req.method }, (performance.now() - started) / 1000);
  });
}

/**
 * The metrics endpoint, GET /metrics, as an app of its own: src/api/server.ts serves it on
 * METRICS_PORT, never on the public API port (payment counts and backlog are not for callers).
 */
export function createMetricsApp() {
  const app = new Hono();
  app.get("/metrics", async (c) => c.body(await metricsRegistry.metrics(), 200, { "content-type": metricsRegistry.contentType }));
  return app;
}

/**
 * In a process of the supervisor's cluster (`npm start`, `start:prod`, the image), which serves the
 * metrics of all its API processes on METRICS_PORT (scripts/start/cluster-metrics.ts): sends this
 * process's registry whenever the supervisor asks for it.
 */
export function sendMetricsWhenAsked() {
  process.on("message", (message: { metricsRequest?: unknown } | null) => {
    const id = message?.metricsRequest;
    if (typeof id !== "number") return;
    metricsRegistry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ metricsReply: id, metrics }),
      (err: Error) => process.send?.({ metricsReply: id, problem: err.message }),
    );
  });
}
