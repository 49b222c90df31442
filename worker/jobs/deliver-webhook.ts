import { DelayedError, type Job } from "bullmq";
import { notificationTransaction } from "../../src/domain/webhooks/events.js";
import { claimWebhookEvent, recordWebhookAttempt } from "../../src/domain/webhooks/outbox.js";
import type { Logger } from "../../src/logger.js";
import type { WorkerConfig } from "../config.js";
import { postJson } from "../http-post.js";
import { signNotification, type KeyStore } from "../signing.js";

/**
 * How long one attempt may hold its event (and its BullMQ job lock): the timeout plus time to sign
 * and record. A worker killed mid-delivery frees the event when this runs out.
 */
export const deliveryLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;

export interface DeliveryJob {
  eventId: string;
}

/**
 * One delivery attempt of one event. The job's id is the event's, and Postgres counts attempts:
 * after a failure the job waits in BullMQ's delayed set until the next attempt is due.
 */
export async function deliverWebhook(
  job: Job<DeliveryJob>,
  token: string | undefined,
  deps: { config: WorkerConfig["webhooks"]; keys: KeyStore; logger: Logger },
) {
  const { config, keys } = deps;
  const now = new Date();
  const event = await claimWebhookEvent(job.data.eventId, now, deliveryLeaseMs(config.timeoutMs));
  if (!event) return "not due or held elsewhere";
  // requestId is the API call that completed the transaction, so one id follows the event end to end.
  const logger = deps.logger.child({
    eventId: event.id,
    requestId: event.correlationId,
    attempt: event.attempts + 1,
    url: event.url,
  });

  const transaction = notificationTransaction.safeParse(event.payload);
  const jwt = transaction.success
    ? await signNotification(await keys.current(), { issuer: config.issuer, jti: event.id, transaction: transaction.data })
    : null;
  const result = jwt
    ? await postJson(event.url, JSON.stringify({ token: jwt }), {
        timeoutMs: config.timeoutMs,
        allowPrivateNetworks: config.allowPrivateNetworks,
      })
    : { outcome: "REFUSED" as const, error: "the stored payload is not a notification transaction", durationMs: 0 };

  const updated = await recordWebhookAttempt(event, { ...result, startedAt: now }, config.retryDelaysMs);
  const fields = {
    outcome: result.outcome,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    state: updated.state,
  };
  if (updated.state === "PENDING") {
    logger.info({ ...fields, nextAttemptAt: updated.nextAttemptAt }, "webhook attempt failed; will retry");
    await job.moveToDelayed(updated.nextAttemptAt.getTime(), token);
    throw new DelayedError();
  }
  if (updated.state === "DELIVERED") logger.info(fields, "webhook delivered");
  else logger.warn(fields, updated.state === "EXHAUSTED" ? "webhook exhausted its attempts" : "webhook refused");
  return updated.state;
}
