import type { Queue } from "bullmq";
import { overdueEvents, takeUndrainedEvents, type DrainedEvent } from "../outbox.js";
import { webhookJobs, type JobData, type WebhookJobData } from "../queues.js";

/** New events per first-attempts job. */
export const FIRST_ATTEMPTS_BATCH = 10;

/**
 * The id of the job that holds an event's current run of attempts. A redelivery gives the event a
 * new attempt limit, and so a new job; anything else finds the job already there.
 */
const jobIdOf = (event: DrainedEvent, retryDelaysMs: readonly number[]) =>
  `${event.id}.${event.attemptLimit ?? retryDelaysMs.length + 1}`;

/** The event's delivery job: as many attempts as it has left, the delays of the schedule between them. */
export function deliveryJob(event: DrainedEvent, retryDelaysMs: readonly number[], now: number) {
  const limit = event.attemptLimit ?? retryDelaysMs.length + 1;
  return {
    name: webhookJobs.deliver.name,
    data: { eventId: event.id } satisfies JobData<typeof webhookJobs.deliver>,
    opts: {
      jobId: jobIdOf(event, retryDelaysMs),
      attempts: Math.max(1, limit - event.attempts),
      backoff: { type: "schedule" },
      delay: Math.max(0, event.nextAttemptAt.getTime() - now),
    },
  };
}

/** Where a job still runs: waiting its turn, waiting for its time, or running. */
const RUNNABLE = new Set(["waiting", "prioritized", "delayed", "active", "waiting-children"]);

/** Whether no job that will run holds `jobId`; a job there that will not run is removed. */
async function clearedForNew(queue: Queue<WebhookJobData>, jobId: string): Promise<boolean> {
  const existing = await queue.getJob(jobId);
  if (existing && RUNNABLE.has(await existing.getState())) return false;
  await existing?.remove();
  return true;
}

/**
 * Gives events their jobs in one bulk add: new events in batches (each event's retries, if any,
 * get a job of their own), others one job each (an id already queued is left as it is). An event
 * with attempts behind it (a redelivery, or one whose timer was lost) may have a job waiting for a
 * later time: that job is brought forward when the event is due now.
 *
 * With `replacingStale` (the reconcile), a job already under one of those ids that will never run
 * is removed first, since the bulk add would keep it: BullMQ's move to active writes to a job's hash
 * whether or not it is still there, so a job whose hash Redis lost while its place stayed comes
 * back without name or data, fails, and holds its id. Returns how many events got a job anew.
 */
async function handOver(
  queue: Queue<WebhookJobData>,
  events: DrainedEvent[],
  retryDelaysMs: readonly number[],
  { replacingStale = false } = {},
): Promise<number> {
  const now = Date.now();
  const fresh = events.filter((event) => event.attempts === 0 && event.nextAttemptAt.getTime() <= now);
  const others = events.filter((event) => !fresh.includes(event));
  const jobs: { events: number; job: Parameters<typeof queue.addBulk>[0][number] }[] = [];
  for (let at = 0; at < fresh.length; at += FIRST_ATTEMPTS_BATCH) {
    const batch = fresh.slice(at, at + FIRST_ATTEMPTS_BATCH);
    jobs.push({
      events: batch.length,
      job: {
        name: webhookJobs.firstAttempts.name,
        data: { eventIds: batch.map((e) => e.id) } satisfies JobData<typeof webhookJobs.firstAttempts>,
        opts: { jobId: `first.${batch[0]!.id}` },
      },
    });
  }
  for (const event of others) jobs.push({ events: 1, job: deliveryJob(event, retryDelaysMs, now) });
  let given = 0;
  for (const { events: count, job } of jobs)
    if (!replacingStale || (await clearedForNew(queue, job.opts!.jobId!))) given += count;
  await queue.addBulk(jobs.map(({ job }) => job));
  for (const event of others) {
    if (event.attempts === 0 || event.nextAttemptAt.getTime() > now) continue;
    const job = await queue.getJob(jobIdOf(event, retryDelaysMs));
    if (job && (await job.isDelayed())) await job.promote();
  }
  return given;
}

/** Hands every pending event that no queue holds yet to the queue. Safe with several workers (SKIP LOCKED). */
export async function drainOutbox(queue: Queue<WebhookJobData>, retryDelaysMs: readonly number[], batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const events = await takeUndrainedEvents(batch);
    if (events.length > 0) await handOver(queue, events, retryDelaysMs);
    total += events.length;
    if (events.length < batch) return total;
  }
}

/**
 * Gives a job again to pending events that are overdue with no worker holding them: their job was
 * lost (Redis flushed, a hand-over that failed), whole or in part (see handOver). Returns how many
 * had no job that would run.
 */
export async function reconcileOutbox(queue: Queue<WebhookJobData>, graceMs: number, retryDelaysMs: readonly number[]) {
  return handOver(queue, await overdueEvents(new Date(), graceMs, 500), retryDelaysMs, { replacingStale: true });
}
