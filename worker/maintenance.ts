import { Worker, type ConnectionOptions } from "bullmq";
import { expireOverdueRequests } from "../src/domain/requests/expire.js";
import { rollUpTakings } from "../src/domain/stats/takings-rollup.js";
import type { Logger } from "../src/logger.js";
import type { WorkerConfig } from "./config.js";
import { runRetentionSweep } from "./jobs/sweep-retention.js";
import type { WorkerMetrics } from "./metrics.js";
import { createQueue, MAINTENANCE_QUEUE, maintenanceJobs, readJob, unknownJob } from "./queues.js";

/** How often merchants' takings are rolled up (each moves on a bin every 15 minutes). */
const TAKINGS_ROLLUP_EVERY_MS = 60_000;

/**
 * The maintenance queue: the expiry and retention sweeps and the takings roll-up as repeating jobs of its schedulers (one
 * job per interval however many workers run), and the worker that runs them one at a time. The
 * schedulers are upserted again every `config.webhooks.reconcileIntervalMs`, in case Redis lost them.
 */
export async function startMaintenance(
  connection: ConnectionOptions,
  config: WorkerConfig,
  metrics: WorkerMetrics,
  logger: Logger,
  failures: { redis: (err: unknown) => void; schedules: (err: unknown) => void },
) {
  const queue = createQueue(MAINTENANCE_QUEUE, connection, config.queues.prefix);
  queue.on("error", failures.redis);
  const ensureSchedules = () =>
    Promise.all([
      queue.upsertJobScheduler(
        maintenanceJobs.expireRequests.name,
        { every: config.expiry.sweepIntervalMs },
        { name: maintenanceJobs.expireRequests.name },
      ),
      queue.upsertJobScheduler(
        maintenanceJobs.sweepRetention.name,
        { every: config.retention.sweepIntervalMs },
        { name: maintenanceJobs.sweepRetention.name },
      ),
      queue.upsertJobScheduler(
        maintenanceJobs.rollUpTakings.name,
        { every: TAKINGS_ROLLUP_EVERY_MS },
        { name: maintenanceJobs.rollUpTakings.name },
      ),
    ]);
  await ensureSchedules();
  const restore = setInterval(() => void ensureSchedules().catch(failures.schedules), config.webhooks.reconcileIntervalMs);

  const worker = new Worker(
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
        case maintenanceJobs.rollUpTakings.name:
          readJob(maintenanceJobs.rollUpTakings, job);
          return rollUpTakings();
        default:
          throw unknownJob(MAINTENANCE_QUEUE, job);
      }
    },
    { connection, prefix: config.queues.prefix, concurrency: 1 },
  );
  return {
    queue,
    worker,
    /** Stops restoring the schedulers; the caller closes the worker and then the queue. */
    stop: () => clearInterval(restore),
  };
}

/**
 * Stores EXPIRED on open requests whose time is up. Reads already show them expired; this makes it
 * durable. The production sweep is unscoped: every overdue request of the database.
 */
async function runExpiryJob(logger: Logger): Promise<number> {
  const expired = await expireOverdueRequests(new Date(), {});
  if (expired > 0) logger.info({ expired }, "expired overdue requests");
  return expired;
}
