import cluster from "node:cluster";
import type { Server } from "node:http";
import { serve, type ServerType } from "@hono/node-server";
import { loadApiConfig } from "./config.js";
import { closeDatabase, openDatabase } from "../db.js";
import { createLogger } from "../logger.js";
import { openRedis, waitForRedis } from "../transport/redis.js";
import { describeRedis, redisSetting } from "../redis-connection.js";
import { createApp } from "../http/app.js";
import { createMetricsApp, sendMetricsWhenAsked } from "../http/metrics.js";
import { localBaseUrl } from "../listen-address.js";

// The API's composition root: its settings, logger and connections are made here and handed down.
const config = loadApiConfig();
const logger = createLogger(config.log, "api");
const tracing = config.tracing.exporter ? (await import("./tracing.js")).startApiTracing(config.tracing, logger) : undefined;
openDatabase(config.db, logger);
const redis = openRedis(config.redis, logger);
if (!(await waitForRedis(redis, config.redis, 30_000, logger))) {
  logger.fatal(`${describeRedis(config.redis)} did not answer within 30 s; set ${redisSetting(config.redis)} to a running Redis`);
  process.exit(1);
}

// serve() installs @hono/node-server's Response globally; the app is made after it so that
// GraphQL answers are made with that Response too (see graphql/yoga.ts).
const { host, port } = config.server;
const server = serve({ fetch: (request, env) => app.fetch(request, env), hostname: host, port }, (info) => {
  logger.info(
    { host: host ?? "every interface", port: info.port },
    `API listening: GraphQL at ${localBaseUrl(host, info.port)}/graphql`,
  );
  // `npm start` runs this process under a supervisor that waits for this message.
  process.send?.({ listening: info.port });
});
exitWhenUnableToListen(server, "PORT", port);
const app = createApp({ config, logger, redis, ...(tracing && { tracing: tracing.spans }) });
// METRICS_PORT=0: no metrics port (the metrics are then not served at all). In the supervisor's
// cluster the supervisor serves the metrics of all its API processes on that port.
if (cluster.isWorker) sendMetricsWhenAsked();
const metricsServer =
  config.metrics.port === null || cluster.isWorker
    ? undefined
    : serve({ fetch: createMetricsApp().fetch, hostname: host, port: config.metrics.port }, (info) => {
        logger.info({ host: host ?? "every interface", port: info.port }, `metrics at ${localBaseUrl(host, info.port)}/metrics`);
      });
if (metricsServer) exitWhenUnableToListen(metricsServer, "METRICS_PORT", config.metrics.port!);

function exitWhenUnableToListen(listener: ServerType, variable: string, port: number) {
  listener.once("error", (err: NodeJS.ErrnoException) => {
    const reason =
      err.code === "EADDRINUSE"
        ? `port ${port} is already in use: stop the process holding it or set ${variable} to another port`
        : err.code === "EADDRNOTAVAIL"
          ? `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 or :: for every interface`
          : `cannot listen on port ${port} (${err.code ?? err.message}): set ${variable} to a port this user may open`;
    logger.fatal(`API stopped: ${reason}`);
    process.exit(1);
  });
}

let stopping = false;
/**
 * Stops as the contract's "Stopping" says: no new calls (the listener closes, and a call on a
 * connection kept alive is refused with 503), subscription streams end, the calls already running
 * answer, and only then do Yoga, the database pools and Redis close. Calls still running after
 * SHUTDOWN_TIMEOUT lose their connection, so no caller is told an outcome that is not true.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const { timeoutMs } = config.shutdown;
  logger.info({ signal, timeoutMs }, "API shutting down: finishing the calls in flight");
  setTimeout(() => process.exit(1), timeoutMs + 5_000).unref();
  const deadline = new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
  const http = server as Server;
  const closed = new Promise<true>((resolve) => http.close(() => resolve(true)));
  (metricsServer as Server | undefined)?.close();
  (metricsServer as Server | undefined)?.closeAllConnections();
  const finished = await Promise.race([app.stop().then(() => true as const), deadline]);
  // Connections kept alive, and those of streams that just ended, close as each falls idle.
  const sweep = setInterval(() => http.closeIdleConnections(), 50);
  if (!(await Promise.race([closed, deadline]))) http.closeAllConnections();
  clearInterval(sweep);
  await app.dispose();
  await closeDatabase();
  await redis.quit().catch(() => redis.disconnect());
  await tracing?.sdk.shutdown().catch((err: Error) => logger.warn({ err: { message: err.message } }, "spans not exported"));
  if (!finished)
    logger.error({ timeoutMs }, "API stopped with calls still running after SHUTDOWN_TIMEOUT; they were cut off unanswered");
  else logger.info("API stopped");
  process.exit(finished ? 0 : 1);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
