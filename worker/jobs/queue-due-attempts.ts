import type { Queue } from "bullmq";
import { claimDueEvents, type DueAttempt } from "../outbox.js";
import { ATTEMPTS_PER_JOB, webhookJobs, type JobData, type WebhookJobData } from "../queues.js";

/** Clocks of two workers may differ by this much: a job is taken for lost only once this much older than the oldest waiting one. */
const CLOCK_MARGIN_MS = 1_000;

/**
 * The delivery jobs that carry `due`, ATTEMPTS_PER_JOB attempts a job, each run once. BullMQ gives
 * them ids of its own: no job id is ever used twice, so nothing Redis kept of a lost job (a hash
 * without data, an id in a list) can stand in for a new one.
 */
export function deliveryJobs(due: DueAttempt[]) {
  const jobs = [];
  for (let at = 0; at < due.length; at += ATTEMPTS_PER_JOB) {
    const attempts = due.slice(at, at + ATTEMPTS_PER_JOB);
    jobs.push({
      name: webhookJobs.attempts.name,
      data: { attempts } satisfies JobData<typeof webhookJobs.attempts>,
      opts: { attempts: 1 },
    });
  }
  return jobs;
}

/**
 * Before when an event's job must have been given for the job to count as lost: more than
 * `lostAfterMs` ago, and before the oldest job still running or waiting. BullMQ takes waiting jobs
 * in order, so one given before those has run, or was lost; a queue that is only slow gets no
 * second copies.
 */
async function lostBefore(queue: Queue<WebhookJobData>, lostAfterMs: number): Promise<Date> {
  // The first of each list, oldest first.
  const oldest = await queue.getJobs(["active", "wait"], 0, 0, true);
  return new Date(Math.min(Date.now() - lostAfterMs, ...oldest.map((job) => job.timestamp - CLOCK_MARGIN_MS)));
}

/**
 * Gives a job to every pending event whose next attempt is due and that has none, and, when
 * `lostAfterMs` is given, to those whose job was lost (see lostBefore, claimDueEvents). Safe with
 * several workers (SKIP LOCKED). Returns how many attempts it queued, and how many of those again.
 */
export async function queueDueAttempts(
  queue: Queue<WebhookJobData>,
  lostAfterMs: number | null,
  batch = 500,
): Promise<{ queued: number; again: number }> {
  const lost = lostAfterMs === null ? new Date(0) : await lostBefore(queue, lostAfterMs);
  const total = { queued: 0, again: 0 };
  for (;;) {
    const due = await claimDueEvents(new Date(), lost, batch);
    if (due.length > 0) await queue.addBulk(deliveryJobs(due.map(({ eventId, attempt }) => ({ eventId, attempt }))));
    total.queued += due.length;
    total.again += due.filter((d) => d.queuedBefore).length;
    if (due.length < batch) return total;
  }
}
