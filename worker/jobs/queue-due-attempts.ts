import type { Queue } from "bullmq";
import { claimDueEvents, type DueAttempt } from "../outbox.js";
import { ATTEMPTS_PER_JOB, webhookJobs, type JobData, type WebhookJobData } from "../queues.js";

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
 * Gives a job to every pending event whose next attempt is due and that has none, or whose job was
 * given more than `lostAfterMs` ago and has not run (see claimDueEvents). Safe with several workers
 * (SKIP LOCKED). Returns how many attempts it queued, and how many of those were queued before.
 */
export async function queueDueAttempts(
  queue: Queue<WebhookJobData>,
  lostAfterMs: number,
  batch = 500,
): Promise<{ queued: number; again: number }> {
  const total = { queued: 0, again: 0 };
  for (;;) {
    const now = new Date();
    const due = await claimDueEvents(now, new Date(now.getTime() - lostAfterMs), batch);
    if (due.length > 0) await queue.addBulk(deliveryJobs(due.map(({ eventId, attempt }) => ({ eventId, attempt }))));
    total.queued += due.length;
    total.again += due.filter((d) => d.queuedBefore).length;
    if (due.length < batch) return total;
  }
}
