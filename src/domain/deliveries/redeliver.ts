import { z } from "zod";
import { pool, toUtcText } from "../../db.js";
import { boolean } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { webhookEvents } from "../../sql/tables.js";
import { notFound, requireMerchant } from "../auth.js";
import { StateConflictError } from "../errors.js";
import type { DomainContext } from "../context.js";
import { id, parseInput } from "../validation.js";
import { sendAgainAt } from "./states.js";
import { WEBHOOK_CHANNEL } from "./outbox.js";

export const redeliverInput = z.object({ eventId: id });
export type RedeliverInput = z.input<typeof redeliverInput>;

/**
 * One more attempt of a delivery, now: PENDING again, due now and without a job, and, unless it was
 * still pending (or held for its disabled endpoint: it goes on with its schedule), allowed exactly
 * one attempt past those made. A notification to a notifyUrl ($5 false), or a delivery to one of the
 * merchant's enabled endpoints ($5 true), never a test event. Announced to the worker on commit.
 */
const REDELIVER = statement(
  `WITH redelivered AS (
     UPDATE webhook_event e SET ${sendAgainAt("$3")}
     WHERE e.id = $1 AND e.merchant_id = $2 AND (e.endpoint_id IS NOT NULL) = $5 AND e.type IS DISTINCT FROM 'PING'
       AND NOT EXISTS (SELECT 1 FROM webhook_endpoint ep WHERE ep.id = e.endpoint_id AND NOT ep.enabled)
     RETURNING e.*)
   SELECT ${webhookEvents.json("r")} AS event, pg_notify($4, r.id::text) IS NULL AS notified FROM redelivered r`,
  { event: webhookEvents, notified: boolean() },
);

/** Why one of the merchant's endpoint deliveries was not redelivered: a test event, or its endpoint is disabled. */
const WHY_NOT_REDELIVERED = statement(
  `SELECT e.type = 'PING' AS "testEvent", NOT ep.enabled AS disabled
   FROM webhook_event e JOIN webhook_endpoint ep ON ep.id = e.endpoint_id
   WHERE e.id = $1 AND e.merchant_id = $2`,
  { testEvent: boolean(), disabled: boolean() },
);

/**
 * Asks for one more attempt of an event now, whatever its state: the same notification with the
 * same jti. An exhausted, refused or delivered event gets exactly one further attempt.
 */
export async function redeliverWebhookEvent(ctx: DomainContext, input: RedeliverInput) {
  const { merchantId } = requireMerchant(ctx);
  const { eventId } = parseInput(redeliverInput, { eventId: "BAD_REQUEST" }, input);
  const row = await queryRow(pool, REDELIVER, [eventId, merchantId, toUtcText(ctx.now()), WEBHOOK_CHANNEL, false]);
  if (!row) throw notFound("WEBHOOK_EVENT_NOT_FOUND");
  ctx.logger.info({ eventId }, "webhook redelivery requested");
  return row.event;
}

/**
 * Asks for one more attempt of one delivery to an endpoint now: the same token, with the event's id
 * as jti. Its endpoint must be enabled, as for a recovery. A test event is refused: it is an answer
 * to one call, tried once, and a new ping is the way to try the endpoint again.
 */
export async function redeliverEndpointDelivery(ctx: DomainContext, input: { deliveryId: string }) {
  const { merchantId } = requireMerchant(ctx);
  const { eventId: deliveryId } = parseInput(redeliverInput, { eventId: "BAD_REQUEST" }, { eventId: input.deliveryId });
  const row = await queryRow(pool, REDELIVER, [deliveryId, merchantId, toUtcText(ctx.now()), WEBHOOK_CHANNEL, true]);
  if (row) {
    ctx.logger.info({ deliveryId }, "webhook redelivery requested");
    return row.event;
  }
  const why = await queryRow(pool, WHY_NOT_REDELIVERED, [deliveryId, merchantId]);
  if (why?.testEvent)
    throw new StateConflictError(
      "WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE",
      "A test event is not redelivered: send another with webhookEndpointPing.",
    );
  if (why?.disabled)
    throw new StateConflictError("WEBHOOK_ENDPOINT_DISABLED", "The delivery's endpoint is disabled: enable it, then redeliver.");
  throw notFound("WEBHOOK_EVENT_NOT_FOUND");
}
