import type { Queue } from "bullmq";
import { drainWebhookEvents, overdueWebhookEvents } from "../../src/domain/webhooks/outbox.js";
import type { DeliveryJob } from "./deliver-webhook.js";

export const DELIVER_JOB = "deliver-webhook";

/**
 * Schedules a delivery job per event, with the event id as job id. A job already waiting for the
 * event is moved to the event's due time (a redelivery asks for "now"); a finished or lost one is
 * replaced.
 */
export async function scheduleDeliveries(
  queue: Queue<DeliveryJob>,
  events: { id: string; nextAttemptAt: Date }[],
): Promise<number> {
  const now = Date.now();
  let added = 0;
  for (const event of events) {
    const delay = Math.max(0, event.nextAttemptAt.getTime() - now);
    const existing = await queue.getJob(event.id);
    const state = existing ? await existing.getState() : "missing";
    if (state === "delayed") {
      await existing!.changeDelay(delay);
      continue;
    }
    if (state === "waiting" || state === "active" || state === "prioritized" || state === "waiting-children") continue;
    // A finished job under the same id blocks a new one. A failure here fails this reconcile (logged); the next retries.
    if (existing) await existing.remove();
    await queue.add(DELIVER_JOB, { eventId: event.id }, { jobId: event.id, delay });
    added += 1;
  }
  return added;
}

/**
 * First attempts go to the queue in one bulk add (an id already queued is ignored); events with
 * attempts behind them (a redelivery) may have a waiting job to move, so they go one by one.
 */
async function handOver(queue: Queue<DeliveryJob>, events: { id: string; nextAttemptAt: Date; attempts: number }[]) {
  const now = Date.now();
  const fresh = events.filter((event) => event.attempts === 0);
  await queue.addBulk(
    fresh.map((event) => ({
      name: DELIVER_JOB,
      data: { eventId: event.id },
      opts: { jobId: event.id, delay: Math.max(0, event.nextAttemptAt.getTime() - now) },
    })),
  );
  await scheduleDeliveries(
    queue,
    events.filter((event) => event.attempts > 0),
  );
}

/** Hands every undrained pending event to the queue. Safe with several workers (SKIP LOCKED). */
export async function drainOutbox(queue: Queue<DeliveryJob>, batch = 200): Promise<number> {
  let total = 0;
  for (;;) {
    const drained = await drainWebhookEvents(batch, (events) => handOver(queue, events));
    total += drained;
    if (drained < batch) return total;
  }
}

/**
 * Re-schedules pending events that are overdue with no worker holding them and no job waiting:
 * their job was lost. Returns how many jobs it had to add again.
 */
export async function reconcileOutbox(queue: Queue<DeliveryJob>, graceMs: number): Promise<number> {
  const overdue = await overdueWebhookEvents(new Date(), graceMs, 500);
  return scheduleDeliveries(queue, overdue);
}
