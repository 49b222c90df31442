import { Queue, UnrecoverableError, type ConnectionOptions, type Job } from "bullmq";
import { z } from "zod";

/**
 * The worker's queues, the names of their jobs and what each job carries. A processor dispatches on
 * the job's name and reads its data with the schema here (readJob); producers add jobs under these
 * names only.
 */

/**
 * Periodic housekeeping: the expiry sweep and the retention sweeps, repeating jobs of this queue's
 * schedulers (one job per interval however many workers run).
 */
export const MAINTENANCE_QUEUE = "maintenance";
export const maintenanceJobs = {
  expireRequests: { name: "expire-requests", data: z.object({}) },
  sweepRetention: { name: "retention-sweep", data: z.object({}) },
  rollUpTakings: { name: "takings-rollup", data: z.object({}) },
} as const;

/**
 * Webhook deliveries, one queue per lane of the claim (src/domain/deliveries/claim.ts):
 * events' deliveries, and test events. Each job makes the given attempts, of up to ATTEMPTS_PER_JOB
 * deliveries to one destination, now, once (BullMQ retries nothing). Which deliveries get a job,
 * when an attempt comes and what follows a failure are PostgreSQL's to say (claim.ts, attempts.ts,
 * src/domain/webhooks/retry-schedule.ts).
 */
export const WEBHOOK_QUEUE = "webhooks";
export const TEST_EVENT_QUEUE = "webhook-tests";
/** Attempts per delivery job: fewer queue round trips per notification in a burst. */
export const ATTEMPTS_PER_JOB = 10;
export const webhookJobs = {
  attempts: {
    name: "delivery-attempts",
    data: z.object({
      attempts: z
        .array(z.object({ eventId: z.uuid(), attempt: z.number().int().min(1) }))
        .min(1)
        .max(ATTEMPTS_PER_JOB),
    }),
  },
} as const;

type JobKind = { name: string; data: z.ZodObject };
export type JobData<K extends JobKind> = z.output<K["data"]>;
/** What the webhook queue's jobs carry, whichever kind. */
export type WebhookJobData = JobData<(typeof webhookJobs)[keyof typeof webhookJobs]>;

/**
 * The job's data as its kind declares it. A job that does not fit (written by another version, or
 * by hand) fails for good, saying why, rather than being guessed at.
 */
export function readJob<S extends z.ZodObject>(kind: { data: S }, job: Pick<Job, "name" | "id" | "data">): z.output<S> {
  const read = kind.data.safeParse(job.data);
  if (!read.success)
    throw new UnrecoverableError(`job ${job.name} (${job.id}) carries data it cannot have: ${read.error.message}`);
  return read.data;
}

/** A job name no processor of this queue knows: it fails for good. */
export const unknownJob = (queue: string, job: Pick<Job, "name">) =>
  new UnrecoverableError(`no job ${job.name} on the ${queue} queue`);

/** A queue with retention defaults: finished jobs are removed, failures kept briefly for inspection. */
export function createQueue<T = unknown>(
  name: string,
  connection: ConnectionOptions,
  prefix: string,
  retention: { removeOnFail?: true } = {},
): Queue<T> {
  return new Queue<T>(name, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: retention.removeOnFail ?? { count: 1000 } },
  });
}

/**
 * BullMQ's refusal to renew or finish a job whose keys or lock Redis no longer holds: a failover
 * promoted a replica that had not received them yet, or Redis restarted empty. Nothing is lost:
 * the job's events stay pending in PostgreSQL's outbox, whose poll gives them a job again.
 */
export const isLostJobState = (err: Error) => /^(Missing (key|lock) for job |could not renew lock for job )/.test(err.message);
