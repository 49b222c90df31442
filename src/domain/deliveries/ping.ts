import { sql } from "kysely";
import { database } from "../../db.js";
import { readUntil } from "../../poll.js";
import { fromRowJson, rowJson, type Row } from "../../sql/rows.js";
import { notFound } from "../auth.js";
import type { DomainContext } from "../context.js";
import { testEventsNotified } from "../events/record.js";
import { parseInput } from "../validation.js";
import { endpointOwner, type EndpointScope } from "../webhooks/endpoint-owner.js";
import { endpointIdInput } from "../webhooks/endpoints.js";
import { asDelivery, TEST_EVENT, type Delivery } from "./states.js";

/**
 * A test event (`ping`) to one endpoint: a delivery of its own, allowed one attempt, which the
 * worker signs and sends like any other (even to a disabled endpoint, to try it before enabling
 * it). Its object is the endpoint; its jti is the delivery's id. It is never listed as an event.
 * The endpoint is read FOR KEY SHARE, the lock the delivery's foreign key takes anyway. Announced
 * to the worker's lane of test events on commit; undefined when the endpoint is not the caller's.
 */
async function sendPing(endpointId: string, { merchantId }: EndpointScope, correlationId: string, now: Date) {
  return database
    .with("ep", (db) =>
      db
        .selectFrom("webhookEndpoint")
        .select(["id", "merchantId", "url"])
        .where("id", "=", endpointId)
        .$if(merchantId !== undefined, (query) => query.where("merchantId", "=", merchantId!))
        .forKeyShare(),
    )
    .with("ping", (db) =>
      db
        .insertInto("delivery")
        .columns([
          "id",
          "merchantId",
          "endpointId",
          "destination",
          "type",
          "url",
          "payload",
          "attemptLimit",
          "correlationId",
          "nextAttemptAt",
          "createdAt",
          "updatedAt",
        ])
        .expression((eb) =>
          eb.selectFrom("ep").select((eb) => {
            const at = sql<Date>`${now}::timestamp(3)`;
            return [
              sql<string>`gen_random_uuid()`.as("deliveryId"),
              "merchantId",
              "id",
              eb.ref("id").as("destination"),
              sql.lit(TEST_EVENT).as("type"),
              "url",
              sql`jsonb_build_object('endpointId', id, 'url', url)`.as("payload"),
              sql.lit(1).as("attemptLimit"),
              sql<string>`${correlationId}::text`.as("correlationId"),
              at.as("nextAttemptAt"),
              at.as("createdAt"),
              at.as("updatedAt"),
            ];
          }),
        )
        .returning("id"),
    )
    .selectFrom("ping")
    .select(["ping.id", sql.raw<bigint>(testEventsNotified("ping")).as("queued")])
    .executeTakeFirst();
}

export interface PingOutcome {
  delivery: Delivery;
  /** Its attempt once made; null when the worker has not finished it in time (it is still sent). */
  attempt: Row<"webhookAttempt"> | null;
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
  const sent = await sendPing(endpointId, scope, ctx.requestId, ctx.now());
  if (!sent) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  ctx.logger.info({ endpointId, deliveryId: sent.id }, "webhook test event queued");
  return awaitAttempt(sent.id, waitMs);
}

/** Reads the delivery until its attempt is finished or the deadline passes. */
async function awaitAttempt(deliveryId: string, waitMs: number): Promise<PingOutcome> {
  const { value: row, reached } = await readUntil(
    () => pingOutcome(deliveryId),
    // Gone with its endpoint (deleted while the test event waited), or its attempt finished.
    (read) => !read || (read.attempt !== null && read.attempt.outcome !== "IN_FLIGHT"),
    waitMs,
  );
  if (!row) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  const attempt = reached ? row.attempt : null;
  return { delivery: row.delivery, attempt, delivered: attempt?.outcome === "DELIVERED" };
}

/** The test event's delivery and its attempt (the latest, the only one), as a row. */
async function pingOutcome(deliveryId: string) {
  const row = await database
    .selectFrom("delivery as e")
    .selectAll("e")
    .select((eb) =>
      eb
        .selectFrom("webhookAttempt as a")
        .select(rowJson("webhookAttempt", "a").as("attempt"))
        .whereRef("a.deliveryId", "=", "e.id")
        .orderBy("a.number", "desc")
        .limit(sql.lit(1))
        .as("attempt"),
    )
    .where("e.id", "=", deliveryId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { attempt, ...delivery } = row;
  return { delivery: asDelivery(delivery), attempt: attempt === null ? null : fromRowJson("webhookAttempt", attempt) };
}
