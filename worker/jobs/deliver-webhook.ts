import { SpanKind } from "@opentelemetry/api";
import { UnrecoverableError } from "bullmq";
import { notificationTransaction } from "../../src/domain/webhooks/events.js";
import type { Logger } from "../../src/logger.js";
import { inSpan, spanLinksTo } from "../../src/tracing.js";
import type { WorkerConfig } from "../config.js";
import type { postJson } from "../http-post.js";
import type { WebhookEventState } from "../../src/generated/prisma/client.js";
import type { DrainedEvent, Outbox, StartedAttempt } from "../outbox.js";
import { verdictOf } from "../retry-schedule.js";
import { signNotification, type KeyStore } from "../signing.js";

/**
 * How long one attempt may hold its event (and its BullMQ job lock): the timeout plus time to sign
 * and record. A worker killed mid-delivery frees the event when this runs out.
 */
export const deliveryLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;

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

type Deps = { config: WorkerConfig["webhooks"]; keys: KeyStore; outbox: Outbox; post: typeof postJson; logger: Logger };

/** What one attempt came to; `retry` when the event has attempts left (its next one due then). */
type Attempted =
  { state: "SKIPPED" } | { state: Exclude<WebhookEventState, "PENDING"> } | { state: "PENDING"; retry: DrainedEvent };

/**
 * One delivery attempt of one event: taken and recorded IN_FLIGHT, signed, POSTed, and its outcome
 * recorded with the event's next state. PostgreSQL counts the attempts and decides what comes next.
 */
async function attempt(eventId: string, deps: Deps): Promise<Attempted> {
  const started = await deps.outbox.start(eventId);
  if (!started) return { state: "SKIPPED" };
  // A trace of its own per attempt, linked to the call that wrote the event: the call's trace does
  // not grow with each retry, and each attempt is found from it.
  return inSpan(
    "webhook.deliver",
    {
      root: true,
      kind: SpanKind.CONSUMER,
      links: spanLinksTo(started.traceparent),
      attributes: { "payreq.webhook.event_id": started.id, "payreq.webhook.attempt": started.attempts },
    },
    async (span) => {
      const attempted = await deliverStarted(started, deps);
      span.setAttribute("payreq.webhook.state", attempted.state);
      return attempted;
    },
  );
}

/** Signs and POSTs an event taken for an attempt, and records the outcome. */
async function deliverStarted(started: StartedAttempt, deps: Deps): Promise<Attempted> {
  const { config, keys, outbox } = deps;
  const transaction = notificationTransaction.safeParse(started.payload);
  const jwt = transaction.success
    ? await inSpan("webhook.sign", {}, async () =>
        signNotification(await keys.current(), { issuer: config.issuer, jti: started.id, transaction: transaction.data }),
      )
    : null;
  const result = jwt
    ? await deps.post(started.url, JSON.stringify({ token: jwt }), {
        timeoutMs: config.timeoutMs,
        allowPrivateNetworks: config.allowPrivateNetworks,
      })
    : { outcome: "REFUSED" as const, error: "the stored payload is not a notification transaction", durationMs: 0 };

  const verdict = verdictOf(started.attempts, started.attemptLimit, result, new Date(), config.retryDelaysMs);
  await outbox.finish(started, result, verdict);
  // requestId is the API call that completed the transaction, so one id follows the event end to end.
  const fields = { eventId: started.id, requestId: started.correlationId, attempt: started.attempts, url: started.url };
  const outcome = { outcome: result.outcome, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs };
  if (verdict.state === "DELIVERED") deps.logger.info({ ...fields, ...outcome }, "webhook delivered");
  else if (verdict.state === "PENDING")
    deps.logger.info({ ...fields, ...outcome, nextAttemptAt: verdict.nextAttemptAt }, "webhook attempt failed; will retry");
  else
    deps.logger.warn(
      { ...fields, ...outcome },
      verdict.state === "EXHAUSTED" ? "webhook exhausted its attempts" : "webhook refused",
    );
  if (verdict.state !== "PENDING") return { state: verdict.state };
  const { id, attempts, attemptLimit } = started;
  return { state: "PENDING", retry: { id, attempts, attemptLimit, nextAttemptAt: verdict.nextAttemptAt! } };
}

/**
 * The first attempts of a batch of new events, at once (fewer queue round trips per notification).
 * An event with attempts left gets a job of its own, retried by BullMQ on the schedule.
 */
export async function deliverFirstAttempts(
  eventIds: string[],
  deps: Deps & { retryLater: (events: DrainedEvent[]) => Promise<unknown> },
) {
  const outcomes = await Promise.all(eventIds.map((eventId) => attempt(eventId, deps)));
  const retries = outcomes.flatMap((o) => (o.state === "PENDING" ? [o.retry] : []));
  if (retries.length > 0) await deps.retryLater(retries);
  return outcomes.map((o) => o.state);
}

/**
 * The next attempt of one event. A failure with attempts left is retried by BullMQ after the
 * schedule's delay; a refused destination or the last failure ends the job (UnrecoverableError).
 */
export async function deliverWebhook(eventId: string, deps: Deps) {
  const outcome = await attempt(eventId, deps);
  if (outcome.state === "PENDING") {
    const delayMs = Math.max(0, outcome.retry.nextAttemptAt.getTime() - Date.now());
    throw new RetryLater(delayMs, `attempt ${outcome.retry.attempts} failed`);
  }
  if (outcome.state === "EXHAUSTED" || outcome.state === "REFUSED")
    throw new UnrecoverableError(`webhook ${outcome.state.toLowerCase()}`);
  return outcome.state;
}
