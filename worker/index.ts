import { closeDatabase, openDatabase } from "../src/db.js";
import { startWorker } from "./app.js";
import { createLogger } from "../src/logger.js";
import { loadWorkerConfig } from "./config.js";
import { SigningKeyProblem } from "./signing.js";

// The worker's composition root: its settings, logger and database are made here and handed down.
const workerConfig = loadWorkerConfig();
const logger = createLogger(workerConfig.log, "worker");
const tracing = workerConfig.tracing.exporter
  ? (await import("../src/tracing-sdk.js")).startTracing(workerConfig.tracing, logger)
  : undefined;
let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
let starting = true;
let stopping = false;
/**
 * Stops taking jobs, lets the jobs in flight finish (within SHUTDOWN_TIMEOUT), then closes the
 * queues, Redis and the database, and exits; a shutdown that hangs is cut short.
 */
async function shutdown(reason: string, code = 0) {
  if (stopping) return;
  stopping = true;
  logger.info({ reason }, "worker shutting down");
  setTimeout(() => {
    logger.error({ timeoutMs: workerConfig.shutdownTimeoutMs }, "worker shutdown timed out; exiting");
    process.exit(1);
  }, workerConfig.shutdownTimeoutMs + 5_000).unref();
  if (starting) {
    // Nothing runs yet, and a start step may be waiting on a connection it holds (for another
    // worker's key generation), which closing the pool would wait for: exiting ends it, and
    // PostgreSQL rolls back what it held.
    logger.info("worker stopped before it had started");
    process.exit(code);
  }
  const finished = (await worker?.close()) ?? true;
  await closeDatabase();
  await tracing?.shutdown().catch((err: Error) => logger.warn({ err: { message: err.message } }, "spans not exported"));
  if (finished) logger.info("worker stopped");
  else
    logger.error(
      { timeoutMs: workerConfig.shutdownTimeoutMs },
      "worker stopped with jobs still running after SHUTDOWN_TIMEOUT; they will run again",
    );
  process.exit(finished ? code : 1);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// A bug that escapes every handler leaves the process in an unknown state: log it, stop cleanly
// (jobs in flight finish or are retried elsewhere), exit non-zero for the supervisor to restart it.
process.on("unhandledRejection", (err) => {
  logger.fatal({ err }, "unhandled rejection");
  void shutdown("unhandledRejection", 1);
});
process.on("uncaughtException", (err) => {
  logger.fatal({ err }, "uncaught exception");
  void shutdown("uncaughtException", 1);
});

openDatabase(workerConfig.db, logger);
try {
  worker = await startWorker(workerConfig, logger.child({ component: "worker" }));
  starting = false;
} catch (err) {
  starting = false;
  if (!(err instanceof SigningKeyProblem)) throw err;
  // One sentence, no stack: `npm start` repeats it as its own last word.
  logger.fatal(`worker stopped: ${err.message}`);
  await new Promise<void>((resolve) =>
    process.send ? process.send({ problem: err.message }, undefined, {}, () => resolve()) : resolve(),
  );
  await shutdown("signing key", 1);
}
