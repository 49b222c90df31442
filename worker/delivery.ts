import { Worker, type ConnectionOptions, type Queue } from "bullmq";
import { TEST_EVENT_SLOTS, type Lane } from "../src/domain/deliveries/claim.js";
import type { WorkerConfig } from "./config.js";
import { makeAttempt, type DeliveryDeps } from "./jobs/deliver-webhook.js";
import { slotGate } from "./slot-gate.js";
import {
  ATTEMPTS_PER_JOB,
  createQueue,
  readJob,
  TEST_EVENT_QUEUE,
  unknownJob,
  WEBHOOK_QUEUE,
  webhookJobs,
  type WebhookJobData,
} from "./queues.js";

/**
 * A lane of webhook delivery in this worker: its queue, the queue's worker, whose jobs make their
 * attempts once (see makeAttempt), at most `slots` at a time, and how many attempts the lane may
 * still claim. Its deliveries' schedules are the outbox's: a job that fails or is lost leaves them
 * pending there.
 */
export interface DeliveryLane {
  lane: Lane;
  queue: Queue<WebhookJobData>;
  worker: Worker<WebhookJobData>;
  /** Attempts in flight at most in this worker's lane. */
  slots: number;
  /**
   * Attempts this worker may still claim in the lane: its slots and READ_AHEAD more, less the
   * attempts of its jobs (running, or waiting for a slot) and of the jobs waiting in the queue
   * (ATTEMPTS_PER_JOB each at most).
   */
  free(): Promise<number>;
}

/**
 * Attempts claimed ahead of the slots, in slots: claims come in batches, while the slots never wait
 * for one. The backlog itself waits in PostgreSQL, where the claims decide whose turn it is.
 */
const READ_AHEAD = 2;

const QUEUES: Record<Lane, string> = { deliveries: WEBHOOK_QUEUE, tests: TEST_EVENT_QUEUE };

/**
 * Starts a lane with `slots` attempts in flight at most. `finished` is told after a job when the
 * attempts held here no longer fill the slots: deliveries that waited for slots (or for their
 * destination's room) may be claimed. `leaseMs`: how long a started attempt holds its delivery
 * (deliveryLeaseMs), also its job's lock.
 */
function startDeliveryLane(
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
  const gate = slotGate(slots);
  let held = 0;
  const worker = new Worker<WebhookJobData>(
    name,
    async (job) => {
      if (job.name !== webhookJobs.attempts.name) throw unknownJob(name, job);
      const { attempts } = readJob(webhookJobs.attempts, job);
      held += attempts.length;
      try {
        await gate.take(attempts.length);
        return await Promise.all(attempts.map((due) => makeAttempt(due, deps).finally(() => gate.give(1))));
      } finally {
        held -= attempts.length;
        // Claim again once a slots' worth of what was claimed ahead has been used.
        if (held <= READ_AHEAD * slots) finished();
      }
    },
    {
      connection,
      prefix: config.queues.prefix,
      // Every job carries at least one attempt: never fewer jobs running than attempts could.
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
      return Math.max(0, (READ_AHEAD + 1) * slots - held - ATTEMPTS_PER_JOB * (await queue.getWaitingCount()));
    },
  };
}

/**
 * The worker's lanes: events' deliveries (WEBHOOK_CONCURRENCY slots) and test events
 * (TEST_EVENT_SLOTS). `slotsFree` is told of a lane whose slots come free (see startDeliveryLane).
 */
export function startDeliveryLanes(
  connection: ConnectionOptions,
  config: WorkerConfig,
  deps: DeliveryDeps,
  leaseMs: number,
  slotsFree: (lane: Lane) => void,
): DeliveryLane[] {
  return [
    startDeliveryLane("deliveries", config.webhooks.concurrency, connection, config, deps, leaseMs, () =>
      slotsFree("deliveries"),
    ),
    startDeliveryLane("tests", TEST_EVENT_SLOTS, connection, config, deps, leaseMs, () => slotsFree("tests")),
  ];
}
