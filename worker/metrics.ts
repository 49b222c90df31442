import { createServer, type Server } from "node:http";
import { once } from "node:events";
import { Counter, Registry } from "prom-client";

/** The worker's own metrics, served on WORKER_METRICS_PORT when it is set. */
export function createWorkerMetrics() {
  const registry = new Registry();
  const retentionDeleted = new Counter({
    name: "payreq_retention_deleted_rows_total",
    help: "Rows the retention sweeps deleted, by table.",
    labelNames: ["table"],
    registers: [registry],
  });
  return { registry, retentionDeleted };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/** GET /metrics on `port` (0: a free one) of `host` (undefined: every interface); resolves with the server once it listens. */
export async function serveWorkerMetrics(metrics: WorkerMetrics, port: number, host?: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  server.listen(port, host);
  await once(server, "listening");
  return server;
}
