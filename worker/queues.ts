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
} as const;

/**
 * Webhook deliveries. New events get their first attempts together, up to FIRST_ATTEMPTS_BATCH a job
 * (id `first.<first event id>`); an event's later attempts are a job of their own (id: the event id
 * and its attempt limit, see jobs/drain-outbox.ts), which BullMQ retries on the schedule.
 */
export const WEBHOOK_QUEUE = "webhooks";
export const webhookJobs = {
  firstAttempts: { name: "first-attempts", data: z.object({ eventIds: z.array(z.uuid()).min(1) }) },
  deliver: { name: "deliver-webhook", data: z.object({ eventId: z.uuid() }) },
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
 * the job's event stays in PostgreSQL's outbox, which the reconcile queues again.
 */
export const isLostJobState = (err: Error) => /^(Missing (key|lock) for job |could not renew lock for job )/.test(err.message);
