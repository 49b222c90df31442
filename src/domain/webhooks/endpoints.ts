import { z } from "zod";
import { randomUUID } from "node:crypto";
import { sql, type Selectable } from "kysely";
import { database } from "../../db.js";
import type { WebhookEndpoint } from "../../generated/kysely/database.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { notFound } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError, ValidationError } from "../errors.js";
import { SUBSCRIBABLE_EVENT_TYPES } from "../events/types.js";
import { withIdempotencyRecord } from "../idempotency-keys.js";
import { httpUrl, id, optional, parseInput, text } from "../validation.js";
import { namesNonPublicAddress } from "./addresses.js";
import { holdWaitingDeliveries } from "../deliveries/hold.js";
import type { DestinationRules } from "./call-settings.js";
import { endpointOwner, type EndpointScope } from "./endpoint-owner.js";

/** A webhook endpoint as its row is. */
export type Endpoint = Selectable<WebhookEndpoint>;

/** How many endpoints one merchant may have (as Stripe allows). */
export const ENDPOINTS_PER_MERCHANT = 16;

const eventTypes = z
  .array(z.enum(SUBSCRIBABLE_EVENT_TYPES))
  .min(1, "name at least one event type")
  .transform((types) => [...new Set(types)]);

const endpointFields = {
  url: httpUrl,
  eventTypes,
  description: optional(text(256)),
};
export const createEndpointInput = z.object({ merchantId: optional(id), ...endpointFields, enabled: optional(z.boolean()) });
export const updateEndpointInput = z.object({
  endpointId: id,
  url: optional(endpointFields.url),
  eventTypes: optional(eventTypes),
  description: endpointFields.description,
  enabled: optional(z.boolean()),
});
export const endpointIdInput = z.object({ endpointId: id });
/** Inputs arrive as callers send them (GraphQL nulls, CLI text): parseInput checks every field. */
type Unchecked<S extends z.ZodObject> = { [K in keyof z.input<S>]?: unknown };
export type CreateEndpointInput = Unchecked<typeof createEndpointInput>;
export type UpdateEndpointInput = Unchecked<typeof updateEndpointInput> & { endpointId: string };

const codes = {
  merchantId: "INVALID_MERCHANT_ID",
  endpointId: "BAD_REQUEST",
  url: "INVALID_ENDPOINT_URL",
  eventTypes: "INVALID_EVENT_TYPE",
  description: "INVALID_DESCRIPTION",
  enabled: "BAD_REQUEST",
} as const;

/** A URL an endpoint may have: an http(s) URL, on a public address unless private networks are allowed. */
function assertDestination(url: string | undefined, rules: DestinationRules): void {
  if (url === undefined || rules.allowPrivateNetworks || !namesNonPublicAddress(new URL(url))) return;
  throw new ValidationError(
    "INVALID_ENDPOINT_URL",
    "url names a loopback, private, link-local or multicast address, which webhooks may not be sent to.",
  );
}

/**
 * The merchant's row locked (FOR NO KEY UPDATE: a lock two creations wait for, but not the
 * merchant's payments, whose foreign keys take KEY SHARE), and then how many endpoints it has: by
 * a statement of its own, which sees what a creation that held the lock committed. Undefined when
 * there is no such merchant.
 */
async function lockAndCountEndpoints(trx: QueryBuilder, merchantId: string): Promise<bigint | undefined> {
  const merchant = await trx.selectFrom("merchant").select("id").where("id", "=", merchantId).forNoKeyUpdate().executeTakeFirst();
  if (!merchant) return undefined;
  const { count } = await trx
    .selectFrom("webhookEndpoint")
    .select(sql<bigint>`count(*)`.as("count"))
    .where("merchantId", "=", merchantId)
    .executeTakeFirstOrThrow();
  return count;
}

/** The endpoint's row, and with an idempotency key the record of it on the key, in one statement. */
function insertEndpoint(
  trx: QueryBuilder,
  ctx: DomainContext,
  endpoint: Pick<Endpoint, "id" | "merchantId" | "url" | "eventTypes" | "description" | "enabled">,
  now: Date,
): Promise<Endpoint> {
  return withIdempotencyRecord(trx, ctx, endpoint.id)
    .insertInto("webhookEndpoint")
    .values({
      ...endpoint,
      disabledReason: endpoint.enabled ? null : "disabled when created",
      disabledAt: endpoint.enabled ? null : now,
      createdAt: now,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Registers an endpoint of the calling merchant (an operator names the merchant). Every later event
 * of its types is delivered to it, signed as notifications are.
 */
export async function createWebhookEndpoint(
  ctx: DomainContext,
  input: CreateEndpointInput,
  rules: DestinationRules,
): Promise<Endpoint> {
  const given = parseInput(createEndpointInput, codes, input);
  const { merchantId } = endpointOwner(ctx, given.merchantId);
  if (!merchantId) throw new ValidationError("INVALID_MERCHANT_ID", "merchantId is required.");
  assertDestination(given.url, rules);
  return database.transaction().execute(async (trx) => {
    // The merchant's row is locked before its endpoints are counted, so two creations cannot both take the last place.
    const count = await lockAndCountEndpoints(trx, merchantId);
    if (count === undefined) throw notFound("MERCHANT_NOT_FOUND");
    if (count >= BigInt(ENDPOINTS_PER_MERCHANT))
      throw new ForbiddenError(
        "WEBHOOK_ENDPOINT_LIMIT_REACHED",
        `A merchant may have at most ${ENDPOINTS_PER_MERCHANT} webhook endpoints.`,
      );
    const endpoint = await insertEndpoint(
      trx,
      ctx,
      {
        id: randomUUID(),
        merchantId,
        url: given.url,
        eventTypes: given.eventTypes,
        description: given.description ?? null,
        enabled: given.enabled ?? true,
      },
      ctx.now(),
    );
    ctx.logger.info({ endpointId: endpoint.id, merchantId }, "webhook endpoint created");
    return endpoint;
  });
}

/** The endpoints `scope` may see: all of them for an operator. */
const endpointsOf = (scope: EndpointScope) =>
  database
    .selectFrom("webhookEndpoint")
    .selectAll()
    .$if(scope.merchantId !== undefined, (query) => query.where("merchantId", "=", scope.merchantId!));

/** The merchant's endpoints, oldest first. */
export async function listWebhookEndpoints(ctx: DomainContext, input: { merchantId?: string } = {}): Promise<Endpoint[]> {
  const given = parseInput(z.object({ merchantId: id.optional() }), codes, input);
  const { merchantId } = endpointOwner(ctx, given.merchantId);
  if (!merchantId) throw new ValidationError("INVALID_MERCHANT_ID", "merchantId is required.");
  return endpointsOf({ merchantId }).orderBy("createdAt").orderBy("id").execute();
}

/** One endpoint the caller may see; WEBHOOK_ENDPOINT_NOT_FOUND otherwise. */
export async function getWebhookEndpoint(ctx: DomainContext, input: { endpointId: string }): Promise<Endpoint> {
  const { endpointId } = parseInput(endpointIdInput, codes, input);
  const endpoint = await endpointsOf(endpointOwner(ctx)).where("id", "=", endpointId).executeTakeFirst();
  if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  return endpoint;
}

/**
 * Changes an endpoint in one statement. Disabling it holds its waiting deliveries (HELD: a recovery
 * sends them); enabling it clears why it was disabled and since when it was failing, and its held
 * deliveries stay held until recovered. A new URL takes effect for every later attempt.
 */
export async function updateWebhookEndpoint(
  ctx: DomainContext,
  input: UpdateEndpointInput,
  rules: DestinationRules,
): Promise<Endpoint> {
  const given = parseInput(updateEndpointInput, codes, input);
  const { merchantId } = endpointOwner(ctx);
  assertDestination(given.url, rules);
  const now = ctx.now();
  const disabledReason = ctx.actor.kind === "operator" ? "disabled by an operator" : "disabled by its merchant";
  const endpoint = await database
    .with("updated", (db) =>
      db
        .updateTable("webhookEndpoint as ep")
        .set((eb) => ({
          ...(given.url !== undefined && { url: given.url }),
          ...(given.eventTypes !== undefined && { eventTypes: given.eventTypes }),
          ...(given.description !== undefined && { description: given.description ?? null }),
          // Enabled again: no longer disabled, and failing only from its next failure.
          ...(given.enabled === true && {
            enabled: true,
            disabledAt: null,
            disabledReason: null,
            failingSince: eb.case().when("ep.enabled", "=", true).then(eb.ref("ep.failingSince")).else(null).end(),
          }),
          // Disabled now, or still disabled since it was.
          ...(given.enabled === false && {
            enabled: false,
            disabledAt: eb.case().when("ep.enabled", "=", true).then(now).else(eb.ref("ep.disabledAt")).end(),
            disabledReason: eb.case().when("ep.enabled", "=", true).then(disabledReason).else(eb.ref("ep.disabledReason")).end(),
          }),
          updatedAt: now,
        }))
        .where("ep.id", "=", given.endpointId)
        .$if(merchantId !== undefined, (query) => query.where("ep.merchantId", "=", merchantId!))
        .returningAll(),
    )
    .with("held", (db) => holdWaitingDeliveries(db.selectFrom("updated").select("id").where("enabled", "=", false), now))
    .selectFrom("updated")
    .selectAll()
    .executeTakeFirst();
  if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  ctx.logger.info({ endpointId: given.endpointId, enabled: endpoint.enabled }, "webhook endpoint updated");
  return endpoint;
}

/** Deletes an endpoint with its deliveries and their attempts; its events stay in the events API. */
export async function deleteWebhookEndpoint(ctx: DomainContext, input: { endpointId: string }): Promise<Endpoint> {
  const { endpointId } = parseInput(endpointIdInput, codes, input);
  const { merchantId } = endpointOwner(ctx);
  const endpoint = await database
    .deleteFrom("webhookEndpoint")
    .where("id", "=", endpointId)
    .$if(merchantId !== undefined, (query) => query.where("merchantId", "=", merchantId!))
    .returningAll()
    .executeTakeFirst();
  if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  ctx.logger.info({ endpointId }, "webhook endpoint deleted");
  return endpoint;
}
