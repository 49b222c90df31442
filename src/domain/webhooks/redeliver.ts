import { z } from "zod";
import { pool, toUtcText } from "../../db.js";
import { boolean } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { webhookEvents } from "../../sql/tables.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { id, parseInput } from "../validation.js";
import { WEBHOOK_CHANNEL } from "./outbox.js";

export const redeliverInput = z.object({ eventId: id });
export type RedeliverInput = z.input<typeof redeliverInput>;

/**
 * One more attempt of an event, now: PENDING again, due now and without a job, and, unless it was
 * still pending, allowed exactly one attempt past those made. Announced to the worker on commit.
 */
const REDELIVER = statement(
  `WITH redelivered AS (
     UPDATE webhook_event e SET state = 'PENDING', next_attempt_at = $3, enqueued_at = NULL, updated_at = $3,
       attempt_limit = CASE WHEN e.state = 'PENDING' THEN e.attempt_limit ELSE e.attempts + 1 END
     WHERE e.id = $1 AND e.merchant_id = $2 AND e.endpoint_id IS NULL
     RETURNING e.*)
   SELECT ${webhookEvents.json("r")} AS event, pg_notify($4, r.id::text) IS NULL AS notified FROM redelivered r`,
  { event: webhookEvents, notified: boolean() },
);

/**
 * Asks for one more attempt of an event now, whatever its state: the same notification with the
 * same jti. An exhausted, refused or delivered event gets exactly one further attempt.
 */
export async function redeliverWebhookEvent(ctx: DomainContext, input: RedeliverInput) {
  const { merchantId } = requireMerchant(ctx);
  const { eventId } = parseInput(redeliverInput, { eventId: "BAD_REQUEST" }, input);
  const row = await queryRow(pool, REDELIVER, [eventId, merchantId, toUtcText(ctx.now()), WEBHOOK_CHANNEL]);
  if (!row) throw notFound("WEBHOOK_EVENT_NOT_FOUND");
  ctx.logger.info({ eventId }, "webhook redelivery requested");
  return row.event;
}
