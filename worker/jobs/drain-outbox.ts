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

/**
 * Gives events their jobs in one bulk add: new events in batches (each event's retries, if any,
 * get a job of their own), others one job each (an id already queued is left as it is). An event
 * with attempts behind it (a redelivery, or one whose timer was lost) may have a job waiting for a
 * later time: that job is brought forward when the event is due now.
 */
async function handOver(queue: Queue<WebhookJobData>, events: DrainedEvent[], retryDelaysMs: readonly number[]) {
  const now = Date.now();
  const fresh = events.filter((event) => event.attempts === 0 && event.nextAttemptAt.getTime() <= now);
  const others = events.filter((event) => !fresh.includes(event));
  const batches = [];
  for (let at = 0; at < fresh.length; at += FIRST_ATTEMPTS_BATCH) {
    const batch = fresh.slice(at, at + FIRST_ATTEMPTS_BATCH);
    batches.push({
      name: webhookJobs.firstAttempts.name,
      data: { eventIds: batch.map((e) => e.id) } satisfies JobData<typeof webhookJobs.firstAttempts>,
      opts: { jobId: `first.${batch[0]!.id}` },
    });
  }
  await queue.addBulk([...batches, ...others.map((event) => deliveryJob(event, retryDelaysMs, now))]);
  for (const event of others) {
    if (event.attempts === 0 || event.nextAttemptAt.getTime() > now) continue;
    const job = await queue.getJob(jobIdOf(event, retryDelaysMs));
    if (job && (await job.isDelayed())) await job.promote();
  }
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

/** Where a job still runs: waiting its turn, waiting for its time, or running. */
const RUNNABLE = new Set(["waiting", "prioritized", "delayed", "active", "waiting-children"]);

/**
 * Gives a job again to pending events that are overdue with no worker holding them: their job was
 * lost (Redis flushed, a hand-over that failed), or only part of it was. A job whose hash outlived
 * the loss of its place, or was written again without its data (BullMQ's move to active writes to
 * a job's hash whether or not it is still there), ends as a failed job with no data: it holds the
 * event's job id and would never run, so it is removed first. Returns how many had no job that runs.
 */
export async function reconcileOutbox(queue: Queue<WebhookJobData>, graceMs: number, retryDelaysMs: readonly number[]) {
  const overdue = await overdueEvents(new Date(), graceMs, 500);
  const lost: DrainedEvent[] = [];
  for (const event of overdue) {
    const job = await queue.getJob(jobIdOf(event, retryDelaysMs));
    if (job && RUNNABLE.has(await job.getState())) continue;
    if (job) await job.remove();
    lost.push(event);
  }
  await handOver(queue, overdue, retryDelaysMs);
  return lost.length;
}
