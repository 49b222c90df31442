import { pool, toUtcText as utc } from "../../db.js";
import { readUntil } from "../../poll.js";
import type { WebhookAttempt, WebhookEvent } from "../../generated/prisma/client.js";
import { bigint, nullable } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { webhookAttempts, webhookEvents } from "../../sql/tables.js";
import { notFound } from "../auth.js";
import type { DomainContext } from "../context.js";
import { testEventsNotified } from "../events/record.js";
import { parseInput } from "../validation.js";
import { endpointOwner } from "../webhooks/endpoint-owner.js";
import { endpointIdInput } from "../webhooks/endpoints.js";

/**
 * A test event (`ping`) to one endpoint: a delivery of its own, allowed one attempt, which the
 * worker signs and sends like any other (even to a disabled endpoint, to try it before enabling
 * it). Its object is the endpoint; its jti is the delivery's id. It is never listed as an event.
 */
const SEND_PING = statement(
  `WITH ep AS (
     SELECT id, merchant_id, url FROM webhook_endpoint WHERE id = $1 AND ($2::uuid IS NULL OR merchant_id = $2)
     FOR KEY SHARE),
   ping AS (
     INSERT INTO webhook_event (id, merchant_id, endpoint_id, destination, type, url, payload, attempt_limit, correlation_id,
                                next_attempt_at, created_at, updated_at)
     SELECT gen_random_uuid(), merchant_id, id, id, 'PING', url, jsonb_build_object('endpointId', id, 'url', url), 1, $3,
            $4::timestamp(3), $4::timestamp(3), $4::timestamp(3)
     FROM ep
     RETURNING id)
   SELECT ping.id, ${testEventsNotified("ping")} AS queued FROM ping`,
  { id: webhookEvents.columns.id, queued: bigint() },
);

const PING_OUTCOME = statement(
  `SELECT ${webhookEvents.json("e")} AS delivery,
          (SELECT ${webhookAttempts.json("a")} FROM webhook_attempt a WHERE a.event_id = e.id
           ORDER BY a.number DESC LIMIT 1) AS attempt
   FROM webhook_event e WHERE e.id = $1`,
  { delivery: webhookEvents, attempt: nullable(webhookAttempts) },
);

export interface PingOutcome {
  delivery: WebhookEvent;
  /** Its attempt once made; null when the worker has not finished it in time (it is still sent). */
  attempt: WebhookAttempt | null;
  /** The endpoint answered 2xx in time. */
  delivered: boolean;
}

/**
 * Sends a test event to an endpoint now and answers with its attempt's outcome, waiting for the
 * worker (which alone signs and sends) up to `waitMs`: the webhook timeout and the time to sign and
 * record. Past that it answers with the delivery still pending; the worker still makes its attempt.
 */
export async function pingWebhookEndpoint(
  ctx: DomainContext,
  input: { endpointId: string },
  waitMs: number,
): Promise<PingOutcome> {
  const { endpointId } = parseInput(endpointIdInput, { endpointId: "BAD_REQUEST" }, input);
  const scope = endpointOwner(ctx);
  const sent = await queryRow(pool, SEND_PING, [endpointId, scope.merchantId ?? null, ctx.requestId, utc(ctx.now())]);
  if (!sent) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  ctx.logger.info({ endpointId, deliveryId: sent.id }, "webhook test event queued");
  return awaitAttempt(sent.id, waitMs);
}

/** Reads the delivery until its attempt is finished or the deadline passes. */
async function awaitAttempt(deliveryId: string, waitMs: number): Promise<PingOutcome> {
  const { value: row, reached } = await readUntil(
    () => queryRow(pool, PING_OUTCOME, [deliveryId]),
    // Gone with its endpoint (deleted while the test event waited), or its attempt finished.
    (read) => !read || (read.attempt !== null && read.attempt.outcome !== "IN_FLIGHT"),
    waitMs,
  );
  if (!row) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  const attempt = reached ? row.attempt : null;
  return { delivery: row.delivery, attempt, delivered: attempt?.outcome === "DELIVERED" };
}
