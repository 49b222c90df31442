/**
 * The metrics of every API process of the supervisor's cluster on one port (METRICS_PORT), as
 * prom-client's cluster aggregation makes them: each scrape asks each process that listens for its
 * registry (`{ metricsRequest: id }`, answered with `{ metricsReply: id, metrics }` or `{ …, problem }`
 * by src/http/metrics.ts) and serves their sum; Prometheus scrapes one target whatever
 * API_PROCESSES is. The processes are asked here rather than through prom-client's own
 * `clusterMetrics()`, which waits on every forked process, one still starting included, and fails
 * the scrape after 5 s.
 *
 * A process that stops takes its counts with it, and the sum would fall, which Prometheus reads as
 * a counter reset (and `rate()` then counts every other process's total again). So the counters
 * and histograms a stopped process last reported stay in the sum: it only grows, short of what the
 * process counted after its last scrape.
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { MetricObjectWithValues, MetricValue } from "prom-client";

type Metrics = MetricObjectWithValues<MetricValue<string>>[];

/** How long a scrape waits for a process's metrics; one that has not sent them fails the scrape (503). */
const ANSWER_WITHIN_MS = 5_000;

/**
 * Serves GET /metrics on `port` of `host` (undefined: every interface) with the sum of the metrics
 * of `processes()`. Resolves once it listens; rejects with one sentence when it cannot.
 */
export async function serveClusterMetrics(
  host: string | undefined,
  port: number,
  processes: () => ChildProcess[],
): Promise<Server> {
  // Loaded only when there is a port to serve: the supervisor stays small otherwise. prom-client is
  // CommonJS, so its exports are the module's default; the image's bundle (scripts/image/bundle.js)
  // gives no other name.
  const promClient = (await import("prom-client")) as unknown as { default: typeof import("prom-client") };
  const { AggregatorRegistry, Registry } = promClient.default;
  const aggregate = (all: Metrics[]) => AggregatorRegistry.aggregate(all);
  let retired: Metrics = [];
  const last = new Map<ChildProcess, Metrics>();

  async function scrape(): Promise<string> {
    const current = processes();
    for (const [child, metrics] of last) {
      if (current.includes(child)) continue;
      last.delete(child);
      const kept = metrics.filter(
        (m) =>
          // prom-client declares `type` an enum of numbers; its values are the type names.
          ["counter", "histogram"].includes(String(m.type)) && (m.aggregator ?? "sum") === "sum",
      );
      retired = await aggregate([retired, kept]).getMetricsAsJSON();
    }
    const answers = await Promise.all(current.map((child) => metricsOf(child)));
    current.forEach((child, i) => last.set(child, answers[i]!));
    return aggregate([retired, ...answers]).metrics();
  }

  const server = createServer((request, response) => {
    if (new URL(request.url ?? "/", "http://metrics").pathname !== "/metrics" || !["GET", "HEAD"].includes(request.method!)) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
      return;
    }
    scrape().then(
      (text) => response.writeHead(200, { "content-type": Registry.PROMETHEUS_CONTENT_TYPE }).end(text),
      (err: Error) => response.writeHead(503, { "content-type": "text/plain" }).end(`${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === "EADDRINUSE"
            ? `port ${port} is already in use: stop the process holding it or set METRICS_PORT to another port`
            : `cannot serve the metrics on port ${port} (${err.code ?? err.message}): set METRICS_PORT to a port this user may open`,
        ),
      ),
    );
    server.listen(port, host, resolve);
  });
  return server;
}

let lastRequest = 0;

/** The registry of one API process, as it sends it (`getMetricsAsJSON()`). */
function metricsOf(child: ChildProcess): Promise<Metrics> {
  const id = ++lastRequest;
  return new Promise((resolve, reject) => {
    const done = (err: Error | undefined, metrics?: Metrics) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (err) reject(err);
      else resolve(metrics!);
    };
    const onMessage = (message: { metricsReply?: unknown; metrics?: Metrics; problem?: string } | null) => {
      if (message?.metricsReply !== id) return;
      done(
        message.problem === undefined ? undefined : new Error(`API process ${child.pid}: ${message.problem}`),
        message.metrics,
      );
    };
    const onExit = () => done(new Error(`API process ${child.pid} stopped while its metrics were asked for`));
    const timer = setTimeout(
      () => done(new Error(`API process ${child.pid} did not send its metrics within ${ANSWER_WITHIN_MS / 1000} s`)),
      ANSWER_WITHIN_MS,
    );
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send({ metricsRequest: id }, (err) => err && done(err));
  });
}
