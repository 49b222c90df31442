import { z } from "zod";
import { sql } from "kysely";
import { database } from "../../db.js";
import { notFound, requireMerchant } from "../auth.js";
import { StateConflictError } from "../errors.js";
import type { DomainContext } from "../context.js";
import { id, parseInput } from "../validation.js";
import { WEBHOOK_CHANNEL } from "./outbox.js";
import { asDelivery, isTestEvent, notTestEvent, notToDisabledEndpoint, sendAgainAt, type Delivery } from "./states.js";

export const redeliverInput = z.object({ eventId: id });
export type RedeliverInput = z.input<typeof redeliverInput>;

/**
 * One more attempt of a delivery, now: PENDING again, due now and without a job, and, unless it was
 * still pending (or held for its disabled endpoint: it goes on with its schedule), allowed exactly
 * one attempt past those made. A notification to a notifyUrl (`toEndpoint` false), or a delivery to
 * one of the merchant's enabled endpoints (true), never a test event. Announced to the worker on
 * commit. Undefined when there is no such delivery.
 */
async function redeliver(
  ctx: DomainContext,
  { deliveryId, merchantId, toEndpoint }: { deliveryId: string; merchantId: string; toEndpoint: boolean },
): Promise<Delivery | undefined> {
  const row = await database
    .with("redelivered", (db) =>
      db
        .updateTable("delivery as e")
        .set(sendAgainAt("e", ctx.now()))
        .where("e.id", "=", deliveryId)
        .where("e.merchantId", "=", merchantId)
        .where((eb) => eb(eb.parens(eb("e.endpointId", "is not", null)), "=", toEndpoint))
        .where(notTestEvent("e"))
        .where(notToDisabledEndpoint("e"))
        .returningAll("e"),
    )
    .selectFrom("redelivered as r")
    .selectAll("r")
    .select(sql<boolean>`pg_notify(${WEBHOOK_CHANNEL}, r.id::text) IS NULL`.as("notified"))
    .executeTakeFirst();
  if (!row) return undefined;
  const { notified: _, ...delivery } = row;
  return asDelivery(delivery);
}

/**
 * Asks for one more attempt of an event now, whatever its state: the same notification with the
 * same jti. An exhausted, refused or delivered event gets exactly one further attempt.
 */
export async function redeliverNotification(ctx: DomainContext, input: RedeliverInput): Promise<Delivery> {
  const { merchantId } = requireMerchant(ctx);
  const { eventId } = parseInput(redeliverInput, { eventId: "BAD_REQUEST" }, input);
  const event = await redeliver(ctx, { deliveryId: eventId, merchantId, toEndpoint: false });
  if (!event) throw notFound("WEBHOOK_EVENT_NOT_FOUND");
  ctx.logger.info({ eventId }, "webhook redelivery requested");
  return event;
}

/**
 * Asks for one more attempt of one delivery to an endpoint now: the same token, with the event's id
 * as jti. Its endpoint must be enabled, as for a recovery. A test event is refused: it is an answer
 * to one call, tried once, and a new ping is the way to try the endpoint again.
 */
export async function redeliverEndpointDelivery(ctx: DomainContext, input: { deliveryId: string }): Promise<Delivery> {
  const { merchantId } = requireMerchant(ctx);
  const { eventId: deliveryId } = parseInput(redeliverInput, { eventId: "BAD_REQUEST" }, { eventId: input.deliveryId });
  const delivery = await redeliver(ctx, { deliveryId, merchantId, toEndpoint: true });
  if (delivery) {
    ctx.logger.info({ deliveryId }, "webhook redelivery requested");
    return delivery;
  }
  // Why it was not redelivered: a test event, or its endpoint is disabled.
  const why = await database
    .selectFrom("delivery as e")
    .innerJoin("webhookEndpoint as ep", "ep.id", "e.endpointId")
    .select([isTestEvent("e").as("testEvent"), sql<boolean>`NOT ep.enabled`.as("disabled")])
    .where("e.id", "=", deliveryId)
    .where("e.merchantId", "=", merchantId)
    .executeTakeFirst();
  if (why?.testEvent)
    throw new StateConflictError(
      "WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE",
      "A test event is not redelivered: send another with webhookEndpointPing.",
    );
  if (why?.disabled)
    throw new StateConflictError("WEBHOOK_ENDPOINT_DISABLED", "The delivery's endpoint is disabled: enable it, then redeliver.");
  throw notFound("WEBHOOK_EVENT_NOT_FOUND");
}
