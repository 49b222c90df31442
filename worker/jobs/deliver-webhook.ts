import { SpanKind } from "@opentelemetry/api";
import type { Logger } from "../../src/logger.js";
import { inSpan, spanLinksTo } from "../../src/tracing.js";
import type { WorkerConfig } from "../config.js";
import type { postJson } from "../http-post.js";
import type { DeliveryState } from "../../src/generated/prisma/client.js";
import type { AttemptResult, Outbox, StartedAttempt } from "../../src/domain/deliveries/attempts.js";
import type { DueAttempt } from "../../src/domain/deliveries/claim.js";
import { verdictOf, type AttemptVerdict } from "../../src/domain/webhooks/retry-schedule.js";
import { signToken, type KeyStore } from "../signing.js";
import { tokenClaims } from "../../src/domain/webhooks/token-claims.js";

export type DeliveryDeps = {
  config: WorkerConfig["webhooks"];
  keys: KeyStore;
  outbox: Outbox;
  post: typeof postJson;
  logger: Logger;
  /** Told when a failed event's next attempt is due, so that a poll of the outbox comes then. */
  nextAttemptDue: (at: Date) => void;
};

/**
 * Makes one attempt of one event now: taken and recorded IN_FLIGHT, signed, POSTed, and its outcome
 * recorded with the event's next state. PostgreSQL counts the attempts and decides what comes next;
 * an attempt that is not its event's next (made already, or the event is no longer pending) is
 * SKIPPED.
 */
export async function makeAttempt(due: DueAttempt, deps: DeliveryDeps): Promise<DeliveryState | "SKIPPED"> {
  const started = await deps.outbox.start(due);
  if (!started) return "SKIPPED";
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
      const state = await deliverStarted(started, deps);
      span.setAttribute("payreq.webhook.state", state);
      return state;
    },
  );
}

/** Signs and POSTs an event taken for an attempt, and records the outcome and what follows it. */
async function deliverStarted(started: StartedAttempt, deps: DeliveryDeps): Promise<DeliveryState> {
  const { config, keys, outbox } = deps;
  const token = tokenClaims(started);
  const jwt = token
    ? await inSpan("webhook.sign", {}, async () => signToken(await keys.current(), { issuer: config.issuer, ...token }))
    : null;
  const result = jwt
    ? await deps.post(started.url, JSON.stringify({ token: jwt }), {
        timeoutMs: config.timeoutMs,
        allowPrivateNetworks: config.allowPrivateNetworks,
      })
    : { outcome: "REFUSED" as const, error: "the stored payload is not the object its token carries", durationMs: 0 };

  const verdict = verdictOf(started.attempts, started.attemptLimit, result, new Date(), config.retryDelaysMs);
  await outbox.finish(started, result, verdict);
  if (verdict.nextAttemptAt) deps.nextAttemptDue(verdict.nextAttemptAt);
  logOutcome(started, result, verdict, deps.logger);
  return verdict.state;
}

function logOutcome(started: StartedAttempt, result: AttemptResult, verdict: AttemptVerdict, logger: Logger) {
  // requestId is the API call that completed the transaction, so one id follows the event end to end.
  const fields = { eventId: started.id, requestId: started.correlationId, attempt: started.attempts, url: started.url };
  const outcome = { outcome: result.outcome, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs };
  if (verdict.state === "DELIVERED") logger.info({ ...fields, ...outcome }, "webhook delivered");
  else if (verdict.state === "PENDING")
    logger.info({ ...fields, ...outcome, nextAttemptAt: verdict.nextAttemptAt }, "webhook attempt failed; will retry");
  else
    logger.warn({ ...fields, ...outcome }, verdict.state === "EXHAUSTED" ? "webhook exhausted its attempts" : "webhook refused");
}
