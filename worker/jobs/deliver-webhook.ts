import { UnrecoverableError, type Job } from "bullmq";
import { notificationTransaction } from "../../src/domain/webhooks/events.js";
import type { Logger } from "../../src/logger.js";
import type { WorkerConfig } from "../config.js";
import type { postJson } from "../http-post.js";
import type { Outbox } from "../outbox.js";
import { verdictOf } from "../retry-schedule.js";
import { signNotification, type KeyStore } from "../signing.js";

/**
 * How long one attempt may hold its event (and its BullMQ job lock): the timeout plus time to sign
 * and record. A worker killed mid-delivery frees the event when this runs out.
 */
export const deliveryLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;

export interface DeliveryJob {
  eventId: string;
}

/** A failed attempt with attempts left: BullMQ runs the job again after `delayMs` (see retryDelay). */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** BullMQ's backoff strategy for deliveries: the delay the outbox chose for the next attempt. */
export const retryDelay = (_attemptsMade: number, _type: string | undefined, err: Error | undefined) =>
  err instanceof RetryLater ? err.delayMs : -1;

/**
 * One delivery attempt of one event. PostgreSQL counts the attempts and decides what comes next;
 * BullMQ keeps the timer: a failure with attempts left is retried after the schedule's delay, a
 * refused destination or the last failure ends the job (UnrecoverableError).
 */
export async function deliverWebhook(
  job: Job<DeliveryJob>,
  deps: { config: WorkerConfig["webhooks"]; keys: KeyStore; outbox: Outbox; post: typeof postJson; logger: Logger },
) {
  const { config, keys, outbox } = deps;
  const attempt = await outbox.start(job.data.eventId);
  if (!attempt) return "no longer pending";
  // requestId is the API call that completed the transaction, so one id follows the event end to end.
  const logger = deps.logger.child({ eventId: attempt.id, requestId: attempt.correlationId, attempt: attempt.attempts });

  const transaction = notificationTransaction.safeParse(attempt.payload);
  const jwt = transaction.success
    ? await signNotification(await keys.current(), { issuer: config.issuer, jti: attempt.id, transaction: transaction.data })
    : null;
  const result = jwt
    ? await deps.post(attempt.url, JSON.stringify({ token: jwt }), {
        timeoutMs: config.timeoutMs,
        allowPrivateNetworks: config.allowPrivateNetworks,
      })
    : { outcome: "REFUSED" as const, error: "the stored payload is not a notification transaction", durationMs: 0 };

  const verdict = verdictOf(attempt.attempts, attempt.attemptLimit, result, new Date(), config.retryDelaysMs);
  await outbox.finish(attempt, result, verdict);
  const fields = {
    url: attempt.url,
    outcome: result.outcome,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
  };
  switch (verdict.state) {
    case "DELIVERED":
      logger.info(fields, "webhook delivered");
      return verdict.state;
    case "PENDING":
      logger.info({ ...fields, nextAttemptAt: verdict.nextAttemptAt }, "webhook attempt failed; will retry");
      throw new RetryLater(Math.max(0, verdict.nextAttemptAt!.getTime() - Date.now()), `attempt ${attempt.attempts} failed`);
    default:
      logger.warn(fields, verdict.state === "EXHAUSTED" ? "webhook exhausted its attempts" : "webhook refused");
      throw new UnrecoverableError(`webhook ${verdict.state.toLowerCase()}`);
  }
}
