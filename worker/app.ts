import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { db } from "../src/db.js";
import { logger as rootLogger } from "../src/logger.js";
import type { WorkerConfig } from "./config.js";
import { runExpiryJob } from "./jobs/expire-requests.js";
import { createQueue, jobs, MAINTENANCE_QUEUE } from "./queues.js";

/**
 * The worker process's parts: the maintenance queue with its schedule and the BullMQ worker that
 * runs it. Webhook delivery (outbox drain, signing, retries) joins here as further queues and jobs.
 */
export async function startWorker(config: WorkerConfig, logger = rootLogger.child({ component: "worker" })) {
  // BullMQ needs maxRetriesPerRequest: null so blocking commands survive Redis reconnects.
  const connection = new Redis(config.redis.url, { maxRetriesPerRequest: null });
  connection.on("error", (err) => logger.error({ err }, "redis connection error"));
  await db.$queryRaw`SELECT 1`;

  const maintenance = createQueue(MAINTENANCE_QUEUE, connection, config.queues.prefix);
  await maintenance.upsertJobScheduler(
    jobs.expireRequests,
    { every: config.expiry.sweepIntervalMs },
    { name: jobs.expireRequests },
  );

  const worker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      if (job.name === jobs.expireRequests) return runExpiryJob(logger.child({ job: job.name, jobId: job.id }));
      throw new Error(`unknown maintenance job ${job.name}`);
    },
    { connection, prefix: config.queues.prefix, concurrency: 1 },
  );
  worker.on("failed", (job, err) => logger.error({ err, job: job?.name }, "maintenance job failed"));
  worker.on("error", (err) => logger.error({ err }, "worker error"));
  await worker.waitUntilReady();
  logger.info({ sweepEveryMs: config.expiry.sweepIntervalMs }, "worker ready");

  return {
    /** Stops taking jobs, lets the running one finish (up to the deadline), then closes connections. */
    async close() {
      const deadline = new Promise((resolve) => setTimeout(resolve, config.shutdownTimeoutMs).unref());
      await Promise.race([worker.close(), deadline]);
      await maintenance.close();
      await connection.quit().catch(() => connection.disconnect());
      await db.$disconnect();
    },
  };
}
