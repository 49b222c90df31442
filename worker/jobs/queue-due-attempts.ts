import type { Queue } from "bullmq";
import { claimDue, releaseLostClaims, type ClaimedAttempt } from "../../src/domain/deliveries/claim.js";
import type { DeliveryLane } from "../delivery.js";
import { onRedis } from "../outage.js";
import { ATTEMPTS_PER_JOB, webhookJobs, type JobData, type WebhookJobData } from "../queues.js";

/** Clocks of two workers may differ by this much: a job is taken for lost only once this much older than the oldest waiting one. */
const CLOCK_MARGIN_MS = 1_000;

/**
 * The delivery jobs that carry `claimed`: each of one destination's attempts, ATTEMPTS_PER_JOB at
 * most, so that a destination that never answers holds up no other's attempts. Each runs once.
 * BullMQ gives them ids of its own: no job id is ever used twice, so nothing Redis kept of a lost
 * job (a hash without data, an id in a list) can stand in for a new one.
 */
export function deliveryJobs(claimed: ClaimedAttempt[]) {
  const byDestination = new Map<string, ClaimedAttempt[]>();
  for (const one of claimed) {
    const group = byDestination.get(one.destination);
    if (group) group.push(one);
    else byDestination.set(one.destination, [one]);
  }
  const jobs = [];
  for (const group of byDestination.values()) {
    for (let at = 0; at < group.length; at += ATTEMPTS_PER_JOB) {
      const attempts = group.slice(at, at + ATTEMPTS_PER_JOB).map(({ eventId, attempt }) => ({ eventId, attempt }));
      jobs.push({
        name: webhookJobs.attempts.name,
        data: { attempts } satisfies JobData<typeof webhookJobs.attempts>,
        opts: { attempts: 1 },
      });
    }
  }
  return jobs;
}

/**
 * Before when a delivery's job must have been given for the job to count as lost: more than
 * `lostAfterMs` ago, and before the oldest job still running or waiting in any lane. BullMQ takes
 * waiting jobs in order, so one given before those has run, or was lost; a queue that is only slow
 * gets no second copies.
 */
async function lostBefore(queues: Queue<WebhookJobData>[], lostAfterMs: number): Promise<Date> {
  // The first of each list, oldest first.
  const oldest = (await Promise.all(queues.map((queue) => onRedis(queue.getJobs(["active", "wait"], 0, 0, true))))).flat();
  return new Date(Math.min(Date.now() - lostAfterMs, ...oldest.map((job) => job.timestamp - CLOCK_MARGIN_MS)));
}

/**
 * Gives each lane's free slots to the deliveries whose turn it is as of `now` (claimDue), in jobs
 * on the lane's queue; when `lostAfterMs` is given, first takes back the claims whose job was lost
 * (see lostBefore), which then wait for a turn like the rest. Safe with several workers. Returns how
 * many attempts it queued, and how many claims it took back.
 */
export async function queueDueAttempts(
  lanes: DeliveryLane[],
  lostAfterMs: number | null,
  now: Date,
): Promise<{ queued: number; again: number }> {
  const again =
    lostAfterMs === null
      ? 0
      : await releaseLostClaims(
          await lostBefore(
            lanes.map((lane) => lane.queue),
            lostAfterMs,
          ),
          now,
        );
  let queued = 0;
  for (const lane of lanes) {
    const claimed = await claimDue(lane.lane, { free: await onRedis(lane.free()), slots: lane.slots }, now);
    if (claimed.length > 0) await onRedis(lane.queue.addBulk(deliveryJobs(claimed)));
    queued += claimed.length;
  }
  return { queued, again };
}
