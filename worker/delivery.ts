import { Worker, type ConnectionOptions } from "bullmq";
import type { WorkerConfig } from "./config.js";
import { makeAttempts, type DeliveryDeps } from "./jobs/deliver-webhook.js";
import { readJob, unknownJob, WEBHOOK_QUEUE, webhookJobs, type WebhookJobData } from "./queues.js";

/**
 * The worker of the webhook queue: each job makes its attempts now, once (see makeAttempts). Its
 * events' schedules are the outbox's: a job that fails or is lost leaves them pending there.
 */
/** `leaseMs`: how long a started attempt holds its event (deliveryLeaseMs), also its job's lock. */
export function startDeliveryWorker(connection: ConnectionOptions, config: WorkerConfig, deps: DeliveryDeps, leaseMs: number) {
  return new Worker<WebhookJobData>(
    WEBHOOK_QUEUE,
    (job) => {
      if (job.name !== webhookJobs.attempts.name) throw unknownJob(WEBHOOK_QUEUE, job);
      return makeAttempts(readJob(webhookJobs.attempts, job).attempts, deps);
    },
    {
      connection,
      prefix: config.queues.prefix,
      // Jobs in flight, each of up to ATTEMPTS_PER_JOB attempts.
      concurrency: config.webhooks.concurrency,
      // A job whose worker died is noticed as stalled after about one lease, not BullMQ's default 30 s.
      lockDuration: leaseMs,
      stalledInterval: leaseMs,
    },
  );
}
