import { UnrecoverableError, Worker } from "bullmq";
import { isDatabaseUnavailable, isRedisUnavailable } from "../src/connection-errors.js";
import { db } from "../src/db.js";
import { connectRedis } from "../src/redis-connection.js";
import type { Logger } from "../src/logger.js";
import type { WorkerConfig } from "./config.js";
import { deliverFirstAttempts, deliverWebhook, deliveryLeaseMs, retryDelay, RetryLater } from "./jobs/deliver-webhook.js";
import { deliveryJob, drainOutbox, reconcileOutbox } from "./jobs/drain-outbox.js";
import { runExpiryJob } from "./jobs/expire-requests.js";
import { runRetentionSweep } from "./jobs/sweep-retention.js";
import { createWorkerMetrics, serveWorkerMetrics } from "./metrics.js";
import { listenForOutbox } from "./outbox-listener.js";
import {
  createQueue,
  MAINTENANCE_QUEUE,
  maintenanceJobs,
  readJob,
  unknownJob,
  WEBHOOK_QUEUE,
  webhookJobs,
  type WebhookJobData,
  isLostJobState,
} from "./queues.js";
import { coalesced } from "./coalesced.js";
import { postJson } from "./http-post.js";
import { openOutbox, type DrainedEvent } from "./outbox.js";
import { startHeartbeat } from "./heartbeat.js";
import { outageReporter, type OutageReporter } from "./outage.js";
import { openKeyStore } from "./signing.js";
import { publishRequestChanges } from "../src/pubsub/request-changes.js";

/**
 * The worker process's parts: the maintenance queue (expiry and retention sweeps) and the webhook outbox, drained
 * from Postgres into a BullMQ queue whose jobs sign and deliver notifications. Postgres holds the
 * truth; a periodic reconcile rebuilds whatever Redis loses.
 */
export async function startWorker(config: WorkerConfig, logger: Logger) {
  // BullMQ needs maxRetriesPerRequest: null so blocking commands survive Redis reconnects.
  const redisOutage = outageReporter("Redis", logger);
  const databaseOutage = outageReporter("PostgreSQL", logger);
  await untilReachable(() => db.$queryRaw`SELECT 1`, databaseOutage);
  // A key that cannot be read stops the start here (SigningKeyProblem), before anything else opens.
  const keys = await openKeyStore(config.webhooks, logger);
  const connection = connectRedis(config.redis, { maxRetriesPerRequest: null });
  connection.on("error", redisOutage.failed);
  connection.on("ready", redisOutage.recovered);
  // The expiry sweep announces expiries to the API processes' subscribers.
  const stopPublishing = publishRequestChanges(connection, logger);

  const maintenance = createQueue(MAINTENANCE_QUEUE, connection, config.queues.prefix);
  // A delivery job that ends is gone: PostgreSQL keeps every attempt, and the reconcile may need its id again.
  const webhooks = createQueue<WebhookJobData>(WEBHOOK_QUEUE, connection, config.queues.prefix, { removeOnFail: true });
  for (const queue of [maintenance, webhooks]) queue.on("error", redisOutage.failed);
  const outbox = openOutbox(deliveryLeaseMs(config.webhooks.timeoutMs));
  const ensureSchedules = () =>
    Promise.all([
      maintenance.upsertJobScheduler(
        maintenanceJobs.expireRequests.name,
        { every: config.expiry.sweepIntervalMs },
        { name: maintenanceJobs.expireRequests.name },
      ),
      maintenance.upsertJobScheduler(
        maintenanceJobs.sweepRetention.name,
        { every: config.retention.sweepIntervalMs },
        { name: maintenanceJobs.sweepRetention.name },
      ),
    ]);
  await ensureSchedules();
  const metrics = createWorkerMetrics();
  const metricsServer =
    config.metrics.port === null ? null : await serveWorkerMetrics(metrics, config.metrics.port, config.metrics.host);
  if (metricsServer) logger.info({ port: (metricsServer.address() as { port: number }).port }, "worker metrics at /metrics");

  const maintenanceWorker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      const jobLogger = logger.child({ job: job.name, jobId: job.id });
      switch (job.name) {
        case maintenanceJobs.expireRequests.name:
          readJob(maintenanceJobs.expireRequests, job);
          return runExpiryJob(jobLogger);
        case maintenanceJobs.sweepRetention.name:
          readJob(maintenanceJobs.sweepRetention, job);
          return runRetentionSweep(config.retention, metrics, jobLogger);
        default:
          throw unknownJob(MAINTENANCE_QUEUE, job);
      }
    },
    { connection, prefix: config.queues.prefix, concurrency: 1 },
  );
  const deps = { config: config.webhooks, keys, outbox, post: postJson, logger };
  const retryLater = (events: DrainedEvent[]) =>
    webhooks.addBulk(events.map((event) => deliveryJob(event, config.webhooks.retryDelaysMs, Date.now())));
  const deliveryWorker = new Worker<WebhookJobData>(
    WEBHOOK_QUEUE,
    (job) => {
      switch (job.name) {
        case webhookJobs.firstAttempts.name:
          return deliverFirstAttempts(readJob(webhookJobs.firstAttempts, job).eventIds, { ...deps, retryLater });
        case webhookJobs.deliver.name:
          return deliverWebhook(readJob(webhookJobs.deliver, job).eventId, deps);
        default:
          throw unknownJob(WEBHOOK_QUEUE, job);
      }
    },
    {
      connection,
      prefix: config.queues.prefix,
      // Jobs in flight: one delivery each, or the first attempts of up to FIRST_ATTEMPTS_BATCH new events.
      concurrency: config.webhooks.concurrency,
      // A job whose worker died is noticed as stalled after about one lease, not BullMQ's default 30 s.
      lockDuration: deliveryLeaseMs(config.webhooks.timeoutMs),
      stalledInterval: deliveryLeaseMs(config.webhooks.timeoutMs),
      settings: { backoffStrategy: retryDelay },
    },
  );
  for (const worker of [maintenanceWorker, deliveryWorker]) {
    // A failed attempt or a final outcome of a delivery is logged by the job itself.
    worker.on("failed", (job, err) => {
      if (err instanceof RetryLater || err instanceof UnrecoverableError) return;
      logger.error({ err, job: job?.name, jobId: job?.id }, "job failed");
    });
    worker.on("error", (err) => {
      if (isRedisUnavailable(err)) redisOutage.failed(err);
      else if (isLostJobState(err))
        logger.warn({ err: { message: err.message } }, "a job's state was lost in Redis; its event stays in the outbox");
      else logger.error({ err }, "worker error");
    });
  }

  /** An outage is one line per dependency (see outage.ts); anything else is logged as it comes. */
  const reportFailure = (err: unknown, what: string) => {
    if (isDatabaseUnavailable(err)) databaseOutage.failed(err);
    else if (isRedisUnavailable(err)) redisOutage.failed(err);
    else logger.error({ err }, what);
  };

  // Drain on every NOTIFY, coalescing bursts (coalesced.ts).
  const drains = coalesced(
    () => drainOutbox(webhooks, config.webhooks.retryDelaysMs).then(() => databaseOutage.recovered()),
    (err) => reportFailure(err, "outbox drain failed"),
  );
  const drain = drains.run;
  const listener = listenForOutbox(config.db.directUrl, drain, databaseOutage);

  const reconcile = async () => {
    try {
      drain();
      const rescheduled = await reconcileOutbox(webhooks, config.webhooks.reconcileIntervalMs, config.webhooks.retryDelaysMs);
      if (rescheduled) logger.warn({ rescheduled }, "re-scheduled webhook events whose queue entry was lost");
      await ensureSchedules();
    } catch (err) {
      reportFailure(err, "outbox reconcile failed");
    }
  };
  const reconciler = setInterval(() => void reconcile(), config.webhooks.reconcileIntervalMs);

  await Promise.all([maintenanceWorker.waitUntilReady(), deliveryWorker.waitUntilReady()]);
  logger.info({ sweepEveryMs: config.expiry.sweepIntervalMs, webhookConcurrency: config.webhooks.concurrency }, "worker ready");
  const heartbeat =
    config.health.file &&
    startHeartbeat(config.health.file, config.health.everyMs, () => Promise.all([db.$queryRaw`SELECT 1`, connection.ping()]));

  return {
    /** The port of its GET /metrics, when it serves one (WORKER_METRICS_PORT). */
    metricsPort: metricsServer ? (metricsServer.address() as { port: number }).port : null,
    /**
     * Stops taking jobs and lets the jobs in flight finish (within SHUTDOWN_TIMEOUT), then closes its
     * queues and Redis. False when jobs were still running at the deadline: their leases lapse and
     * another worker runs them again.
     */
    async close(): Promise<boolean> {
      clearInterval(reconciler);
      if (heartbeat) await heartbeat.stop();
      await listener.close();
      const deadline = new Promise<false>((resolve) => setTimeout(() => resolve(false), config.shutdownTimeoutMs).unref());
      const workersClosed = Promise.all([maintenanceWorker.close(), deliveryWorker.close()]).then(() => true as const);
      const finished = await Promise.race([workersClosed, deadline]);
      await drains.settled();
      stopPublishing();
      await Promise.all([maintenance.close(), webhooks.close()]);
      metricsServer?.close();
      await connection.quit().catch(() => connection.disconnect());
      return finished;
    },
  };
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
