import { z } from "zod";
import { db } from "../../db.js";
import { notFound, requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { id, parseInput } from "../validation.js";
import { WEBHOOK_CHANNEL } from "./outbox.js";

export const redeliverInput = z.object({ eventId: id });
export type RedeliverInput = z.input<typeof redeliverInput>;

/**
 * Asks for one more attempt of an event now, whatever its state: the same notification with the
 * same jti. An exhausted, refused or delivered event gets exactly one further attempt.
 */
export async function redeliverWebhookEvent(ctx: DomainContext, input: RedeliverInput) {
  const { merchantId } = requireMerchant(ctx);
  const { eventId } = parseInput(redeliverInput, { eventId: "BAD_REQUEST" }, input);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string; state: string; attempts: number }[]>`
      SELECT id, state, attempts FROM webhook_event WHERE id = ${eventId}::uuid AND merchant_id = ${merchantId}::uuid FOR UPDATE`;
    const event = locked[0];
    if (!event) throw notFound("WEBHOOK_EVENT_NOT_FOUND");
    const redelivered = await tx.webhookEvent.update({
      where: { id: eventId },
      data: {
        state: "PENDING",
        nextAttemptAt: ctx.now(),
        enqueuedAt: null,
        ...(event.state === "PENDING" ? {} : { attemptLimit: event.attempts + 1 }),
      },
    });
    await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_CHANNEL}, ${eventId})`;
    ctx.logger.info({ eventId }, "webhook redelivery requested");
    return redelivered;
  });
}
