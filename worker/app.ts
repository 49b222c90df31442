import { UnrecoverableError, type Worker } from "bullmq";
import { isDatabaseUnavailable, isRedisUnavailable } from "../src/connection-errors.js";
import { databaseAnswers } from "../src/domain/reachable.js";
import { connectRedis } from "../src/redis-connection.js";
import type { Logger } from "../src/logger.js";
import { publishRequestChanges } from "../src/pubsub/request-changes.js";
import type { WorkerConfig } from "./config.js";
import { startDeliveryLanes } from "./delivery.js";
import { startHeartbeat } from "./heartbeat.js";
import { postJson } from "./http-post.js";
import { openOutbox } from "../src/domain/deliveries/attempts.js";
import { deliveryLeaseMs } from "../src/domain/deliveries/states.js";
import { startMaintenance } from "./maintenance.js";
import { createWorkerMetrics, serveWorkerMetrics } from "./metrics.js";
import { outageReporter, RedisCallFailed, type OutageReporter } from "./outage.js";
import { startOutboxPoll } from "./outbox-poll.js";
import { isLostJobState } from "./queues.js";
import { openKeyStore } from "./signing.js";

type Outages = { redis: OutageReporter; database: OutageReporter };

/**
 * The worker process's parts: the maintenance queue (expiry and retention sweeps), and webhook
 * delivery. PostgreSQL's outbox owns each delivery's schedule; its poll gives due events a job on
 * the webhook queue, whose worker makes their attempts once each (docs/architecture.md, "Delivery
 * schedule").
 */
export async function startWorker(config: WorkerConfig, logger: Logger) {
  const outages = { redis: outageReporter("Redis", logger), database: outageReporter("PostgreSQL", logger) };
  await untilReachable(databaseAnswers, outages.database);
  // A key that cannot be read stops the start here (SigningKeyProblem), before anything else opens.
  const keys = await openKeyStore(config.webhooks, logger);
  // BullMQ needs maxRetriesPerRequest: null so blocking commands survive Redis reconnects.
  const connection = connectRedis(config.redis, { maxRetriesPerRequest: null });
  connection.on("error", outages.redis.failed);
  connection.on("ready", outages.redis.recovered);
  // The expiry sweep announces expiries to the API processes' subscribers.
  const stopPublishing = publishRequestChanges(connection, logger);
  const failed = failureReporter(outages, logger);
  const metrics = createWorkerMetrics();
  const maintenance = await startMaintenance(connection, config, metrics, logger, {
    redis: outages.redis.failed,
    schedules: failed("maintenance schedules failed"),
  });
  const leaseMs = deliveryLeaseMs(config.webhooks.timeoutMs);
  const outbox = openOutbox(leaseMs, config.webhooks.endpointDisableAfterMs);
  // The poll gives the lanes their jobs; the lanes' attempts tell it when a retry is due and when their
  // slots are free (a job left from before may run before the poll has started: its first run looks anyway).
  let poll: ReturnType<typeof startOutboxPoll> | undefined;
  const deliveryDeps = {
    config: config.webhooks,
    keys,
    outbox,
    post: postJson,
    logger,
    nextAttemptDue: (at: Date) => poll?.pollAt(at),
  };
  const watch = (worker: Worker) => reportJobFailures(worker, failed, logger);
  const lanes = startDeliveryLanes(connection, config, deliveryDeps, leaseMs, (lane) => poll?.request(lane), watch);
  for (const { queue } of lanes) queue.on("error", outages.redis.failed);
  poll = startOutboxPoll(
    lanes,
    { intervalMs: config.webhooks.reconcileIntervalMs, listenUrl: config.db.directUrl },
    outages.database,
    failed("outbox poll failed"),
    logger,
  );
  const queues = [maintenance.queue, ...lanes.map((lane) => lane.queue)];
  reportJobFailures(maintenance.worker, failed, logger);
  const metricsServer = await serveMetrics(config, metrics, logger);

  await Promise.all([maintenance.worker, ...lanes.map((lane) => lane.worker)].map((worker) => worker.waitUntilReady()));
  logger.info({ sweepEveryMs: config.expiry.sweepIntervalMs, webhookConcurrency: config.webhooks.concurrency }, "worker ready");
  const heartbeat =
    config.health.file &&
    startHeartbeat(config.health.file, config.health.everyMs, () => Promise.all([databaseAnswers(), connection.ping()]));

  return {
    /** The port of its GET /metrics, when it serves one (WORKER_METRICS_PORT). */
    metricsPort: metricsServer ? (metricsServer.address() as { port: number }).port : null,
    /**
     * Stops taking jobs and lets the jobs in flight finish (within SHUTDOWN_TIMEOUT), then closes its
     * queues and Redis. False when jobs were still running at the deadline: their leases lapse and
     * another worker runs them again.
     */
    async close(): Promise<boolean> {
      maintenance.stop();
      if (heartbeat) await heartbeat.stop();
      await poll.stop();
      const deadline = new Promise<false>((resolve) => setTimeout(() => resolve(false), config.shutdownTimeoutMs).unref());
      const workersClosed = Promise.all([maintenance.worker.close(), ...lanes.map((lane) => lane.close())]).then(
        () => true as const,
      );
      const finished = await Promise.race([workersClosed, deadline]);
      await poll.settled();
      stopPublishing();
      await Promise.all(queues.map((queue) => queue.close()));
      metricsServer?.close();
      await connection.quit().catch(() => connection.disconnect());
      return finished;
    },
  };
}

/**
 * An outage is one line per dependency (see outage.ts), Redis's for a call the step made to it (RedisCallFailed);
 * anything else is logged as it comes, saying `what` failed.
 */
const failureReporter =
  (outages: Outages, logger: Logger) =>
  (what: string, fields: Record<string, unknown> = {}) =>
  (err: unknown) => {
    const onRedis = err instanceof RedisCallFailed;
    const cause = onRedis ? err.cause : err;
    if (!onRedis && isDatabaseUnavailable(cause)) outages.database.failed(cause);
    else if (isRedisUnavailable(cause)) outages.redis.failed(cause);
    else logger.error({ ...fields, err: cause }, what);
  };

/**
 * Logs a job that failed and the worker's own errors. A delivery job's events stay pending in the
 * outbox whatever became of the job, and an attempt logs its own outcome.
 */
function reportJobFailures(worker: Worker, failed: ReturnType<typeof failureReporter>, logger: Logger) {
  worker.on("failed", (job, err) => {
    if (err instanceof UnrecoverableError)
      logger.warn({ job: job?.name, jobId: job?.id, err: { message: err.message } }, "job dropped");
    else failed("job failed", { job: job?.name, jobId: job?.id })(err);
  });
  worker.on("error", (err) => {
    if (isLostJobState(err))
      logger.warn({ err: { message: err.message } }, "a job's state was lost in Redis; its events stay in the outbox");
    // The worker's own errors are its Redis connections' (a job's go to "failed").
    else failed("worker error")(new RedisCallFailed(err));
  });
}

async function serveMetrics(config: WorkerConfig, metrics: ReturnType<typeof createWorkerMetrics>, logger: Logger) {
  if (config.metrics.port === null) return null;
  const server = await serveWorkerMetrics(metrics, config.metrics.port, config.metrics.host);
  logger.info({ port: (server.address() as { port: number }).port }, "worker metrics at /metrics");
  return server;
}

/** Runs `probe` until it succeeds, reporting the outage meanwhile: a worker waits for its database, it does not crash. */
async function untilReachable(probe: () => Promise<unknown>, outage: OutageReporter) {
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      await probe();
      outage.recovered();
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      outage.failed(err);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
