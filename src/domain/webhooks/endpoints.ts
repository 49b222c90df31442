import { z } from "zod";
import { randomUUID } from "node:crypto";
import { inTransaction, pool, StatementParams, toUtcText as utc } from "../../db.js";
import type { WebhookEndpoint } from "../../generated/prisma/client.js";
import { bigint, uuid } from "../../sql/columns.js";
import { queryRow, queryRows, rowShape, statement } from "../../sql/statements.js";
import { webhookEndpoints } from "../../sql/tables.js";
import { notFound } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError, ValidationError } from "../errors.js";
import { SUBSCRIBABLE_EVENT_TYPES } from "../events/types.js";
import { httpUrl, id, optional, parseInput, text } from "../validation.js";
import { namesNonPublicAddress } from "./addresses.js";
import { HOLD } from "./deliveries/states.js";
import type { DestinationRules } from "./call-settings.js";
import { endpointOwner, type EndpointScope } from "./endpoint-owner.js";

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

// NO KEY UPDATE: a lock two creations wait for, but not the merchant's payments (their foreign keys' KEY SHARE).
const LOCK_MERCHANT = statement("SELECT id FROM merchant WHERE id = $1 FOR NO KEY UPDATE", { id: uuid() });
const COUNT_ENDPOINTS = statement("SELECT count(*) AS count FROM webhook_endpoint WHERE merchant_id = $1", { count: bigint() });
const insertedRow = rowShape({ endpoint: webhookEndpoints });

/** The endpoint's row, and with an idempotency key the record of it on the key, in one statement. */
function insertEndpoint(
  ctx: DomainContext,
  endpoint: Pick<WebhookEndpoint, "id" | "merchantId" | "url" | "eventTypes" | "description" | "enabled">,
  now: Date,
) {
  const p = new StatementParams();
  const record = ctx.writeIdempotencyRecord?.(p, endpoint.id);
  const at = `${p.add(utc(now))}::timestamp(3)`;
  const text = `${record ? `WITH ${record} ` : ""}
    INSERT INTO webhook_endpoint (id, merchant_id, url, event_types, description, enabled, disabled_reason, disabled_at,
                                  created_at, updated_at)
    VALUES (${p.add(endpoint.id)}::uuid, ${p.add(endpoint.merchantId)}::uuid, ${p.add(endpoint.url)},
            ${p.add(endpoint.eventTypes)}::"EventType"[], ${p.add(endpoint.description)}, ${p.add(endpoint.enabled)},
            ${endpoint.enabled ? "NULL" : "'disabled when created'"}, ${endpoint.enabled ? "NULL" : at}, ${at}, ${at})
    RETURNING ${webhookEndpoints.json("webhook_endpoint")} AS endpoint`;
  return { text, shape: insertedRow, values: p.values };
}

/**
 * Registers an endpoint of the calling merchant (an operator names the merchant). Every later event
 * of its types is delivered to it, signed as notifications are.
 */
export async function createWebhookEndpoint(
  ctx: DomainContext,
  input: CreateEndpointInput,
  rules: DestinationRules,
): Promise<WebhookEndpoint> {
  const given = parseInput(createEndpointInput, codes, input);
  const { merchantId } = endpointOwner(ctx, given.merchantId);
  if (!merchantId) throw new ValidationError("INVALID_MERCHANT_ID", "merchantId is required.");
  assertDestination(given.url, rules);
  return inTransaction(async (sql) => {
    // The merchant's row is locked before its endpoints are counted (by a statement of its own, which
    // sees what a creation that held the lock committed), so two creations cannot both take the last place.
    if (!(await queryRow(sql, LOCK_MERCHANT, [merchantId]))) throw notFound("MERCHANT_NOT_FOUND");
    const { count } = (await queryRow(sql, COUNT_ENDPOINTS, [merchantId]))!;
    if (count >= BigInt(ENDPOINTS_PER_MERCHANT))
      throw new ForbiddenError(
        "WEBHOOK_ENDPOINT_LIMIT_REACHED",
        `A merchant may have at most ${ENDPOINTS_PER_MERCHANT} webhook endpoints.`,
      );
    const { text, shape, values } = insertEndpoint(
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
    const { endpoint } = (await queryRow(sql, { text, shape }, values))!;
    ctx.logger.info({ endpointId: endpoint.id, merchantId }, "webhook endpoint created");
    return endpoint;
  });
}

const LIST_ENDPOINTS = statement(
  `SELECT ${webhookEndpoints.json("ep")} AS endpoint FROM webhook_endpoint ep
   WHERE ep.merchant_id = $1 ORDER BY ep.created_at, ep.id`,
  { endpoint: webhookEndpoints },
);
const FIND_ENDPOINT = statement(
  `SELECT ${webhookEndpoints.json("ep")} AS endpoint FROM webhook_endpoint ep
   WHERE ep.id = $1 AND ($2::uuid IS NULL OR ep.merchant_id = $2)`,
  { endpoint: webhookEndpoints },
);

/** The merchant's endpoints, oldest first. */
export async function listWebhookEndpoints(ctx: DomainContext, input: { merchantId?: string } = {}): Promise<WebhookEndpoint[]> {
  const given = parseInput(z.object({ merchantId: id.optional() }), codes, input);
  const { merchantId } = endpointOwner(ctx, given.merchantId);
  if (!merchantId) throw new ValidationError("INVALID_MERCHANT_ID", "merchantId is required.");
  return (await queryRows(pool, LIST_ENDPOINTS, [merchantId])).map((row) => row.endpoint);
}

/** One endpoint the caller may see; WEBHOOK_ENDPOINT_NOT_FOUND otherwise. */
export async function getWebhookEndpoint(ctx: DomainContext, input: { endpointId: string }): Promise<WebhookEndpoint> {
  const { endpointId } = parseInput(endpointIdInput, codes, input);
  return findEndpoint(endpointOwner(ctx), endpointId);
}

async function findEndpoint(scope: EndpointScope, endpointId: string): Promise<WebhookEndpoint> {
  const row = await queryRow(pool, FIND_ENDPOINT, [endpointId, scope.merchantId ?? null]);
  if (!row) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  return row.endpoint;
}

/**
 * Changes an endpoint in one statement. Disabling it holds its waiting deliveries (HELD: a recovery
 * sends them); enabling it clears why it was disabled and since when it was failing, and its held
 * deliveries stay held until recovered. A new URL takes effect for every later attempt.
 */
const UPDATE_ENDPOINT = statement(
  `WITH updated AS (
     UPDATE webhook_endpoint ep SET
       url = COALESCE($3, ep.url),
       event_types = COALESCE($4::"EventType"[], ep.event_types),
       description = CASE WHEN $5::boolean THEN $6 ELSE ep.description END,
       enabled = COALESCE($7, ep.enabled),
       disabled_at = CASE WHEN $7 = false AND ep.enabled THEN $8::timestamp(3) WHEN $7 THEN NULL ELSE ep.disabled_at END,
       disabled_reason = CASE WHEN $7 = false AND ep.enabled THEN $9 WHEN $7 THEN NULL ELSE ep.disabled_reason END,
       failing_since = CASE WHEN $7 AND NOT ep.enabled THEN NULL ELSE ep.failing_since END,
       updated_at = $8::timestamp(3)
     WHERE ep.id = $1 AND ($2::uuid IS NULL OR ep.merchant_id = $2)
     RETURNING ep.*),
   held AS (
     UPDATE webhook_event e SET ${HOLD}, updated_at = $8::timestamp(3)
     FROM updated u
     WHERE NOT u.enabled AND e.endpoint_id = u.id AND e.state = 'PENDING' AND e.type <> 'PING'
       AND (e.lease_until IS NULL OR e.lease_until <= $8::timestamp(3)))
   SELECT ${webhookEndpoints.json("u")} AS endpoint FROM updated u`,
  { endpoint: webhookEndpoints },
);

export async function updateWebhookEndpoint(
  ctx: DomainContext,
  input: UpdateEndpointInput,
  rules: DestinationRules,
): Promise<WebhookEndpoint> {
  const given = parseInput(updateEndpointInput, codes, input);
  const scope = endpointOwner(ctx);
  assertDestination(given.url, rules);
  const row = await queryRow(pool, UPDATE_ENDPOINT, [
    given.endpointId,
    scope.merchantId ?? null,
    given.url ?? null,
    given.eventTypes ?? null,
    given.description !== undefined,
    given.description ?? null,
    given.enabled ?? null,
    utc(ctx.now()),
    ctx.actor.kind === "operator" ? "disabled by an operator" : "disabled by its merchant",
  ]);
  if (!row) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  ctx.logger.info({ endpointId: given.endpointId, enabled: row.endpoint.enabled }, "webhook endpoint updated");
  return row.endpoint;
}

const DELETE_ENDPOINT = statement(
  `DELETE FROM webhook_endpoint ep WHERE ep.id = $1 AND ($2::uuid IS NULL OR ep.merchant_id = $2)
   RETURNING ${webhookEndpoints.json("ep")} AS endpoint`,
  { endpoint: webhookEndpoints },
);

/** Deletes an endpoint with its deliveries and their attempts; its events stay in the events API. */
export async function deleteWebhookEndpoint(ctx: DomainContext, input: { endpointId: string }): Promise<WebhookEndpoint> {
  const { endpointId } = parseInput(endpointIdInput, codes, input);
  const row = await queryRow(pool, DELETE_ENDPOINT, [endpointId, endpointOwner(ctx).merchantId ?? null]);
  if (!row) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  ctx.logger.info({ endpointId }, "webhook endpoint deleted");
  return row.endpoint;
}
