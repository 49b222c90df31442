import { serve, type ServerType } from "@hono/node-server";
import { config } from "./config.js";
import { closeDatabase, openDatabase } from "./db.js";
import { redactedUrl, redis, waitForRedis } from "./redis.js";
import { createApp } from "./http/app.js";
import { createMetricsApp } from "./http/metrics.js";
import { logger } from "./api-logger.js";

openDatabase(config.db, logger);
if (!(await waitForRedis(30_000))) {
  logger.fatal({ url: redactedUrl(config.redis.url) }, "Redis did not answer within 30 s; set REDIS_URL to a running Redis");
  process.exit(1);
}

// serve() installs @hono/node-server's Response globally; the app is made after it so that
// GraphQL answers are made with that Response too (see graphql/yoga.ts).
const server = serve({ fetch: (request, env) => app.fetch(request, env), port: config.server.port }, (info) => {
  logger.info({ port: info.port }, `API listening: GraphQL at http://localhost:${info.port}/graphql`);
  // `npm start` runs this process under a supervisor that waits for this message.
  process.send?.({ listening: info.port });
});
exitWhenUnableToListen(server, "PORT", config.server.port);
const app = createApp();
const metricsServer = serve({ fetch: createMetricsApp().fetch, port: config.metrics.port }, (info) => {
  logger.info({ port: info.port }, `metrics at http://localhost:${info.port}/metrics`);
});
exitWhenUnableToListen(metricsServer, "METRICS_PORT", config.metrics.port);

function exitWhenUnableToListen(listener: ServerType, variable: string, port: number) {
  listener.once("error", (err: NodeJS.ErrnoException) => {
    const reason =
      err.code === "EADDRINUSE"
        ? `port ${port} is already in use: stop the process holding it or set ${variable} to another port`
        : `cannot listen on port ${port} (${err.code ?? err.message}): set ${variable} to a port this user may open`;
    logger.fatal(`API stopped: ${reason}`);
    process.exit(1);
  });
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "API shutting down");
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  server.close();
  metricsServer.close();
  await app.dispose();
  await closeDatabase();
  redis.disconnect();
  clearTimeout(force);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
