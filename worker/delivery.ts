import { Worker, type ConnectionOptions, type Queue } from "bullmq";
import type { Lane } from "../src/domain/webhooks/deliveries/claim.js";
import type { WorkerConfig } from "./config.js";
import { makeAttempts, type DeliveryDeps } from "./jobs/deliver-webhook.js";
import { createQueue, readJob, TEST_EVENT_QUEUE, unknownJob, WEBHOOK_QUEUE, webhookJobs, type WebhookJobData } from "./queues.js";

/**
 * A lane of webhook delivery in this worker: its queue, the queue's worker, whose jobs make their
 * attempts now, once (see makeAttempts), and how many attempts it may still start. Its deliveries'
 * schedules are the outbox's: a job that fails or is lost leaves them pending there.
 */
export interface DeliveryLane {
  lane: Lane;
  queue: Queue<WebhookJobData>;
  worker: Worker<WebhookJobData>;
  /** Attempts in flight at most in this worker's lane. */
  slots: number;
  /**
   * Attempts this worker may still start in the lane: its slots less its attempts in flight, and none
   * while jobs wait in the queue (a worker that has room takes those first). What its claims take.
   */
  free(): Promise<number>;
}

const QUEUES: Record<Lane, string> = { deliveries: WEBHOOK_QUEUE, tests: TEST_EVENT_QUEUE };

/**
 * Starts a lane with `slots` attempts in flight at most. `finished` is told after each job: its
 * attempts' slots are free again, and deliveries that waited for them (or for their destination's
 * room) may be claimed. `leaseMs`: how long a started attempt holds its delivery (deliveryLeaseMs),
 * also its job's lock.
 */
export function startDeliveryLane(
  lane: Lane,
  slots: number,
  connection: ConnectionOptions,
  config: WorkerConfig,
  deps: DeliveryDeps,
  leaseMs: number,
  finished: () => void,
): DeliveryLane {
  const name = QUEUES[lane];
  // A delivery job that ends is gone: PostgreSQL keeps every attempt.
  const queue = createQueue<WebhookJobData>(name, connection, config.queues.prefix, { removeOnFail: true });
  let inFlight = 0;
  const worker = new Worker<WebhookJobData>(
    name,
    async (job) => {
      if (job.name !== webhookJobs.attempts.name) throw unknownJob(name, job);
      const { attempts } = readJob(webhookJobs.attempts, job);
      inFlight += attempts.length;
      try {
        return await makeAttempts(attempts, deps);
      } finally {
        inFlight -= attempts.length;
        finished();
      }
    },
    {
      connection,
      prefix: config.queues.prefix,
      // Every job carries at least one attempt, and the claims never give more than the slots.
      concurrency: slots,
      // A job whose worker died is noticed as stalled after about one lease, not BullMQ's default 30 s.
      lockDuration: leaseMs,
      stalledInterval: leaseMs,
    },
  );
  return {
    lane,
    queue,
    worker,
    slots,
    async free() {
      return (await queue.getWaitingCount()) > 0 ? 0 : Math.max(0, slots - inFlight);
    },
  };
}
