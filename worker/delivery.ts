import { Worker, type ConnectionOptions, type Job, type Queue } from "bullmq";
import { TEST_EVENT_SLOTS, type Lane } from "../src/domain/deliveries/claim.js";
import type { WorkerConfig } from "./config.js";
import { makeAttempt, type DeliveryDeps } from "./jobs/deliver-webhook.js";
import { oneRunAtATime } from "./one-run-at-a-time.js";
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
  /** The queue's BullMQ worker now: a new one replaces one that stopped taking jobs (see startDeliveryLane). */
  readonly worker: Worker<WebhookJobData>;
  /** Attempts in flight at most in this worker's lane. */
  slots: number;
  /**
   * Attempts this worker may still claim in the lane: its slots and READ_AHEAD more, less the
   * attempts of its jobs (running, or waiting for a slot) and of the jobs waiting in the queue
   * (ATTEMPTS_PER_JOB each at most).
   */
  free(): Promise<number>;
  /** Stops watching the worker and closes it (letting its jobs finish unless `force`). */
  close(force?: boolean): Promise<void>;
}

/**
 * Attempts claimed ahead of the slots, in slots: claims come in batches, while the slots never wait
 * for one. The backlog itself waits in PostgreSQL, where the claims decide whose turn it is.
 */
const READ_AHEAD = 2;

const QUEUES: Record<Lane, string> = { deliveries: WEBHOOK_QUEUE, tests: TEST_EVENT_QUEUE };

/** How often BullMQ looks for jobs of a dead worker (at least every second). */
const stalledCheckEveryMs = (leaseMs: number) => Math.max(1_000, Math.round(leaseMs / 4));

/**
 * Starts a lane with `slots` attempts in flight at most. `finished` is told after a job when the
 * attempts held here no longer fill the slots: deliveries that waited for slots (or for their
 * destination's room) may be claimed. `leaseMs`: how long a started attempt holds its delivery
 * (deliveryLeaseMs), also its job's lock. `watch` is given each BullMQ worker the lane makes.
 *
 * Should a BullMQ worker stop taking jobs, raising nothing (its blocking connection given up, as
 * ioredis gives up one that a failover catches reconnecting: see src/sentinel-connector.ts), jobs
 * would wait and the lane's claims stop, since waiting jobs count against them. So every third of a
 * lease the lane looks: jobs waiting, slots free, and no job started for a whole lease means the
 * worker is wedged, and a new one replaces it.
 */
function startDeliveryLane(
  lane: Lane,
  slots: number,
  connection: ConnectionOptions,
  config: WorkerConfig,
  deps: DeliveryDeps,
  leaseMs: number,
  finished: () => void,
  watch: (worker: Worker<WebhookJobData>) => void,
): DeliveryLane {
  const name = QUEUES[lane];
  // A delivery job that ends is gone: PostgreSQL keeps every attempt.
  const queue = createQueue<WebhookJobData>(name, connection, config.queues.prefix, { removeOnFail: true });
  const gate = slotGate(slots);
  let held = 0;
  let lastStart = Date.now();
  const process = async (job: Job<WebhookJobData>) => {
    lastStart = Date.now();
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
  };
  const newWorker = () => {
    const made = new Worker<WebhookJobData>(name, process, {
      connection,
      prefix: config.queues.prefix,
      // Every job carries at least one attempt: never fewer jobs running than attempts could.
      concurrency: slots,
      // A job's lock lapses a lease after its worker died; BullMQ gives the job up as stalled at the
      // second check that finds it unlocked and running, so checks every quarter lease give it up
      // within a lease and a half of the death.
      lockDuration: leaseMs,
      stalledInterval: stalledCheckEveryMs(leaseMs),
    });
    watch(made);
    return made;
  };
  let worker = newWorker();

  const watchdog = watchForWedge(leaseMs, {
    busy: () => held >= slots,
    sinceLastStartMs: () => Date.now() - lastStart,
    waiting: () => queue.getWaitingCount(),
    idle: () => (lastStart = Date.now()),
    replace: async (waiting) => {
      deps.logger.warn(
        { lane, waiting, held, slots, sinceLastJobMs: Date.now() - lastStart },
        "the delivery lane's queue worker took no waiting job for a lease; replacing it",
      );
      const wedged = worker;
      lastStart = Date.now();
      worker = newWorker();
      await wedged.close(true);
    },
  });

  return {
    lane,
    queue,
    get worker() {
      return worker;
    },
    slots,
    async free() {
      return Math.max(0, (READ_AHEAD + 1) * slots - held - ATTEMPTS_PER_JOB * (await queue.getWaitingCount()));
    },
    async close(force = false) {
      await watchdog.stop();
      await worker.close(force);
    },
  };
}

/**
 * Every third of a lease, looks whether the lane's worker is wedged: not busy, no job started for a
 * whole lease, and jobs waiting (with none waiting, the lane is idle, and the clock starts again).
 */
function watchForWedge(
  leaseMs: number,
  lane: {
    busy: () => boolean;
    sinceLastStartMs: () => number;
    waiting: () => Promise<number>;
    idle: () => void;
    replace: (waiting: number) => Promise<void>;
  },
) {
  const look = oneRunAtATime(
    async () => {
      if (lane.busy() || lane.sinceLastStartMs() < leaseMs) return;
      const waiting = await lane.waiting();
      if (waiting === 0) lane.idle();
      else await lane.replace(waiting);
    },
    // A look that cannot read the queue (Redis is away, which is reported as such) waits for the next.
    () => {},
  );
  const timer = setInterval(() => look.request(), Math.max(1_000, Math.round(leaseMs / 3))).unref();
  return {
    async stop() {
      clearInterval(timer);
      await look.settled();
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
  watch: (worker: Worker<WebhookJobData>) => void,
): DeliveryLane[] {
  return [
    startDeliveryLane(
      "deliveries",
      config.webhooks.concurrency,
      connection,
      config,
      deps,
      leaseMs,
      () => slotsFree("deliveries"),
      watch,
    ),
    startDeliveryLane("tests", TEST_EVENT_SLOTS, connection, config, deps, leaseMs, () => slotsFree("tests"), watch),
  ];
}
