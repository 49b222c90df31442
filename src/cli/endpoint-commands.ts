/**
 * The CLI's `endpoint …` commands: a merchant's webhook endpoints, managed by an operator. Event
 * types are written and printed by their dotted names (payment.completed), as tokens name them.
 */
import type { DomainContext } from "../domain/context.js";
import { ValidationError } from "../domain/errors.js";
import { EVENT_TYPE_NAMES, typeNameList, type SubscribableEventType } from "../domain/events/types.js";
import type { WebhookCallSettings } from "../domain/webhooks/call-settings.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from "../domain/webhooks/endpoints.js";
import { pingWebhookEndpoint } from "../domain/deliveries/ping.js";
import { recoverWebhookDeliveries } from "../domain/deliveries/recover.js";
import type { WebhookEndpoint } from "../generated/prisma/client.js";
import type { Command } from "./command-line.js";

export type EndpointCommand = Extract<Command, `endpoint ${string}`>;

/** `--types payment.completed,refund.completed`: each name a subscribable type, or INVALID_EVENT_TYPE. */
function eventTypesNamed(list: string): SubscribableEventType[] {
  const parsed = typeNameList.safeParse(list);
  if (parsed.success) return parsed.data;
  throw new ValidationError("INVALID_EVENT_TYPE", `--types ${parsed.error.issues[0]!.message}.`);
}

/** An endpoint as the CLI prints it: dotted type names, ISO times, absent fields left out. */
function presentEndpoint(endpoint: WebhookEndpoint): Record<string, unknown> {
  const time = (at: Date | null) => at?.toISOString();
  const shown = {
    id: endpoint.id,
    merchantId: endpoint.merchantId,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes.map((type) => EVENT_TYPE_NAMES[type]),
    description: endpoint.description ?? undefined,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason ?? undefined,
    disabledAt: time(endpoint.disabledAt),
    failingSince: time(endpoint.failingSince),
    recoveredAt: time(endpoint.recoveredAt),
    createdAt: time(endpoint.createdAt),
    updatedAt: time(endpoint.updatedAt),
  };
  return defined(shown);
}

/** The values a command line gave (command-line.ts has checked which it takes and needs). */
interface EndpointArgs {
  text: (name: string) => string | undefined;
  flag: (name: string) => boolean;
  /** The endpoint's id, for the commands that take one. */
  endpointId: string;
}

/** Runs one `endpoint …` command; `endpoint ping` answers `delivered`, which sets the exit code. */
export async function runEndpointCommand(
  ctx: DomainContext,
  command: EndpointCommand,
  { text, flag, endpointId }: EndpointArgs,
  settings: WebhookCallSettings,
): Promise<Record<string, unknown>> {
  const types = text("types");
  switch (command) {
    case "endpoint create": {
      const input = {
        merchantId: text("merchant"),
        url: text("url"),
        eventTypes: eventTypesNamed(types ?? ""),
        description: text("description"),
      };
      return presentEndpoint(await createWebhookEndpoint(ctx, { ...input, enabled: !flag("disabled") }, settings));
    }
    case "endpoint list": {
      const endpoints = await listWebhookEndpoints(ctx, { merchantId: text("merchant") });
      return { endpoints: endpoints.map(presentEndpoint) };
    }
    case "endpoint update": {
      const enabled = flag("enable") ? true : flag("disable") ? false : undefined;
      // Blank, as every text option, is not given.
      const eventTypes = types === undefined || types.trim() === "" ? undefined : eventTypesNamed(types);
      const input = { endpointId, url: text("url"), eventTypes, description: text("description"), enabled };
      return presentEndpoint(await updateWebhookEndpoint(ctx, input, settings));
    }
    case "endpoint delete": {
      const deleted = await deleteWebhookEndpoint(ctx, { endpointId });
      return { id: deleted.id, url: deleted.url, deleted: true };
    }
    case "endpoint ping":
      return ping(ctx, endpointId, settings.testEventWaitMs);
    case "endpoint recover":
      return { ...(await recoverWebhookDeliveries(ctx, { endpointId, since: text("since") ?? "" })) };
  }
}

/** A test event's outcome; without a worker making its attempt in time, that it was not attempted yet. */
async function ping(ctx: DomainContext, endpointId: string, waitMs: number): Promise<Record<string, unknown>> {
  const outcome = await pingWebhookEndpoint(ctx, { endpointId }, waitMs);
  const { delivery, attempt } = outcome;
  if (!attempt)
    return {
      deliveryId: delivery.id,
      delivered: false,
      outcome: "not attempted yet",
      note: `no worker made its attempt within ${waitMs} ms; a running worker still sends it once`,
    };
  const shown = {
    deliveryId: delivery.id,
    delivered: outcome.delivered,
    outcome: attempt.outcome,
    statusCode: attempt.statusCode ?? undefined,
    durationMs: attempt.durationMs ?? undefined,
    error: attempt.error ?? undefined,
  };
  return defined(shown);
}

/** The fields that have a value: what the CLI prints leaves out what is not there. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
