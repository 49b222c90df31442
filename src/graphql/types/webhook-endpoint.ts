import { endpointHealth, type EndpointHealth } from "../../domain/deliveries/endpoint-health.js";
import {
  createEndpointInput,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from "../../domain/webhooks/endpoints.js";
import { OUTBOX_LOG_PAGE } from "../../domain/page-size.js";
import { pingWebhookEndpoint, type PingOutcome } from "../../domain/deliveries/ping.js";
import {
  countRecoverable,
  lastRecovery,
  recoverInput,
  recoverWebhookDeliveries,
  type Recovery,
} from "../../domain/deliveries/recover.js";
import { redeliverEndpointDelivery } from "../../domain/deliveries/redeliver.js";
import { builder } from "../builder.js";
import { idempotentMutation, runIdempotentCall } from "../idempotent.js";
import { parameterCodes } from "../strict-variables.js";
import { EventTypeEnum } from "./event-type.js";
import { outboxLogPage, WebhookAttemptOutcomeEnum, WebhookEventStateEnum, WebhookOutboxEntry } from "./webhook-event.js";

const WebhookEndpointHealth = builder.objectRef<EndpointHealth>("WebhookEndpointHealth").implement({
  description: "How an endpoint's deliveries are doing.",
  fields: (t) => ({
    lastAttemptAt: t.expose("lastAttemptAt", {
      type: "DateTime",
      nullable: true,
      description: "When its latest attempt started.",
    }),
    lastOutcome: t.field({
      type: WebhookAttemptOutcomeEnum,
      nullable: true,
      description: "What its latest attempt came to.",
      resolve: (health) => health.lastOutcome,
    }),
    attemptsLastDay: t.exposeInt("attemptsLastDay", { description: "Attempts finished in the last 24 hours." }),
    successShareLastDay: t.exposeFloat("successShareLastDay", {
      nullable: true,
      description: "The share of those delivered, from 0 to 1; null when none was made.",
    }),
    failingSince: t.expose("failingSince", {
      type: "DateTime",
      nullable: true,
      description: "Since when every attempt has failed; null while its latest attempt was delivered.",
    }),
  }),
});

export const WebhookDelivery = builder.prismaObject("Delivery", {
  variant: "WebhookDelivery",
  description: "One event's delivery to an endpoint (or a test event), with its attempts.",
  interfaces: [WebhookOutboxEntry],
  fields: (t) => ({
    id: t.exposeID("id", { description: "The delivery's id (a test event's token carries it as jti)." }),
    type: t.field({
      type: EventTypeEnum,
      description: "The event's type.",
      // Only endpoint deliveries are read as this type, and each has a type.
      resolve: (delivery) => delivery.type!,
    }),
    eventId: t.exposeID("eventId", {
      nullable: true,
      description: "The event delivered (its token's jti); null for a test event.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the event happened." }),
  }),
});

const WebhookEndpoint = builder.prismaObject("WebhookEndpoint", {
  description:
    "A merchant's webhook endpoint: each event of the types it subscribes to is POSTed to it as an ES256-signed token.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The endpoint's id." }),
    url: t.exposeString("url", { description: "Where events are POSTed." }),
    eventTypes: t.field({ type: [EventTypeEnum], description: "The types it receives.", resolve: (ep) => ep.eventTypes }),
    description: t.exposeString("description", { nullable: true, description: "The merchant's note." }),
    enabled: t.exposeBoolean("enabled", { description: "False: it is sent nothing; its waiting deliveries are HELD." }),
    disabledReason: t.exposeString("disabledReason", { nullable: true, description: "Why it is disabled." }),
    disabledAt: t.expose("disabledAt", { type: "DateTime", nullable: true, description: "When it was disabled." }),
    recoverable: t.int({
      description: "How many of its deliveries webhookEndpointRecover since this time would queue now.",
      args: { since: t.arg({ type: "DateTime", required: true, description: "As webhookEndpointRecover's since." }) },
      resolve: async (endpoint, { since }, ctx) => countRecoverable(await ctx.domain(), { endpointId: endpoint.id, since }),
    }),
    health: t.field({
      type: WebhookEndpointHealth,
      description: "Its latest outcome, its last day's success share, and since when it has been failing.",
      resolve: async (endpoint, _args, ctx) => endpointHealth(endpoint, (await ctx.domain()).now()),
    }),
    deliveries: t.relation("deliveries", {
      description: "Its delivery log, newest first.",
      args: {
        states: t.arg({ type: [WebhookEventStateEnum], description: "Only deliveries in these states." }),
        first: t.arg.int({
          description: `How many: 1 to ${OUTBOX_LOG_PAGE.max} (${OUTBOX_LOG_PAGE.default} when not given).`,
        }),
      },
      query: (args) => outboxLogPage(args),
      type: WebhookDelivery,
    }),
    recoveredAt: t.expose("recoveredAt", {
      type: "DateTime",
      nullable: true,
      description: "When a recovery last queued deliveries to send again.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was registered." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed." }),
  }),
});

const WebhookTestResult = builder.objectRef<PingOutcome>("WebhookTestResult").implement({
  description: "A test event's delivery and its attempt.",
  fields: (t) => ({
    delivered: t.exposeBoolean("delivered", { description: "The endpoint answered 2xx in time." }),
    outcome: t.field({
      type: WebhookAttemptOutcomeEnum,
      nullable: true,
      description: "What the attempt came to; null when the worker had not made it in time (it is still sent).",
      resolve: (result) => result.attempt?.outcome ?? null,
    }),
    statusCode: t.int({
      nullable: true,
      description: "The endpoint's HTTP status.",
      resolve: (r) => r.attempt?.statusCode ?? null,
    }),
    durationMs: t.int({
      nullable: true,
      description: "How long the attempt took.",
      resolve: (r) => r.attempt?.durationMs ?? null,
    }),
    error: t.string({ nullable: true, description: "Why it failed.", resolve: (r) => r.attempt?.error ?? null }),
    delivery: t.field({ type: WebhookDelivery, description: "The test event's delivery.", resolve: (r) => r.delivery }),
  }),
});

const WebhookRecovery = builder.objectRef<Recovery>("WebhookRecovery").implement({
  description: "A recovery of an endpoint's deliveries.",
  fields: (t) => ({
    endpointId: t.exposeID("endpointId", { description: "The endpoint." }),
    queued: t.exposeInt("queued", { description: "How many deliveries were queued to be sent again." }),
  }),
});

/** The code a wrong value of each field answers (GraphQL variables of any JSON type too). */
const ENDPOINT_FIELD_CODES = {
  url: "INVALID_ENDPOINT_URL",
  eventTypes: "INVALID_EVENT_TYPE",
  description: "INVALID_DESCRIPTION",
} as const;

const WebhookEndpointCreateInput = builder.inputType("WebhookEndpointCreateInput", {
  description: "A webhook endpoint to register.",
  extensions: parameterCodes(ENDPOINT_FIELD_CODES),
  fields: (t) => ({
    url: t.string({ required: true, description: "An http or https URL, on a public address." }),
    eventTypes: t.field({ type: [EventTypeEnum], required: true, description: "The types it receives (not PING)." }),
    description: t.string({ description: "A note (at most 256 characters)." }),
    enabled: t.boolean({ description: "False registers it disabled. Default true." }),
  }),
});

const WebhookEndpointUpdateInput = builder.inputType("WebhookEndpointUpdateInput", {
  description: "What changes of an endpoint; fields not given stay.",
  extensions: parameterCodes(ENDPOINT_FIELD_CODES),
  fields: (t) => ({
    id: t.id({ required: true, description: "The endpoint." }),
    url: t.string({ description: "A new URL: later attempts, pending ones too, go there." }),
    eventTypes: t.field({ type: [EventTypeEnum], description: "The types it receives from now on." }),
    description: t.string({ description: "A new note." }),
    enabled: t.boolean({ description: "False disables it (its waiting deliveries are held); true enables it again." }),
  }),
});

const WebhookEndpointRecoverInput = builder.inputType("WebhookEndpointRecoverInput", {
  description: "Which endpoint's deliveries to send again, since when.",
  fields: (t) => ({
    id: t.id({ required: true, description: "The endpoint." }),
    since: t.field({
      type: "DateTime",
      required: true,
      description: "Deliveries of events made at or after this time, or first attempted at or after it.",
    }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaField({
    type: ["WebhookEndpoint"],
    description: "The merchant's webhook endpoints, oldest first.",
    resolve: async (_query, _root, _args, ctx) => listWebhookEndpoints(await ctx.domain()),
  }),
  webhookEndpoint: t.prismaField({
    type: "WebhookEndpoint",
    description: "One of the merchant's webhook endpoints.",
    args: { id: t.arg.id({ required: true, description: "The endpoint." }) },
    resolve: async (_query, _root, args, ctx) => getWebhookEndpoint(await ctx.domain(), { endpointId: args.id }),
  }),
}));

builder.mutationFields((t) => {
  const idempotencyKey = t.arg.string({ description: "Retries with the same key get the first outcome back (24 hours)." });
  return {
    webhookEndpointCreate: t.field({
      type: WebhookEndpoint,
      description: "Register a webhook endpoint: every later event of its types is POSTed to it, signed.",
      args: { input: t.arg({ type: WebhookEndpointCreateInput, required: true, description: "The endpoint." }), idempotencyKey },
      errors: {},
      resolve: async (root, args, ctx) =>
        idempotentMutation({
          operation: "webhookEndpointCreate",
          schema: createEndpointInput,
          run: (domain, input: typeof args.input) => createWebhookEndpoint(domain, input, ctx.webhooks),
          reload: (domain, endpointId) => getWebhookEndpoint(domain, { endpointId }),
        })(root, args, ctx),
    }),
    webhookEndpointUpdate: t.field({
      type: WebhookEndpoint,
      description: "Change an endpoint's URL, event types, note, or whether it is enabled.",
      args: { input: t.arg({ type: WebhookEndpointUpdateInput, required: true, description: "What changes." }) },
      errors: {},
      resolve: async (_root, { input }, ctx) =>
        updateWebhookEndpoint(await ctx.domain(), { ...input, endpointId: input.id }, ctx.webhooks),
    }),
    webhookEndpointDelete: t.field({
      type: WebhookEndpoint,
      description: "Delete an endpoint and its delivery log; its events stay listed.",
      args: { id: t.arg.id({ required: true, description: "The endpoint." }) },
      errors: {},
      resolve: async (_root, args, ctx) => deleteWebhookEndpoint(await ctx.domain(), { endpointId: args.id }),
    }),
    webhookDeliveryRedeliver: t.field({
      type: WebhookDelivery,
      description:
        "Attempt one delivery to an endpoint again now: the same token, the event's id as jti. " +
        "A given-up delivery gets one more attempt; its endpoint must be enabled.",
      args: { id: t.arg.id({ required: true, description: "The delivery (from an endpoint's deliveries)." }) },
      errors: {},
      resolve: async (_root, args, ctx) => redeliverEndpointDelivery(await ctx.domain(), { deliveryId: args.id }),
    }),
    webhookEndpointPing: t.field({
      type: WebhookTestResult,
      description: "Send a signed test event (`ping`) to an endpoint now, and answer with its attempt's outcome.",
      args: { id: t.arg.id({ required: true, description: "The endpoint." }) },
      errors: {},
      resolve: async (_root, args, ctx) =>
        pingWebhookEndpoint(await ctx.domain(), { endpointId: args.id }, ctx.webhooks.testEventWaitMs),
    }),
    webhookEndpointRecover: t.field({
      type: WebhookRecovery,
      description:
        "Send again every delivery to an endpoint since a time that was not delivered (failed, exhausted or held). " +
        "One that queues anything per endpoint a minute; one that queues nothing does not count.",
      args: {
        input: t.arg({ type: WebhookEndpointRecoverInput, required: true, description: "What to recover." }),
        idempotencyKey,
      },
      errors: {},
      resolve: async (_root, { input, idempotencyKey: key }, ctx) =>
        runIdempotentCall(
          {
            operation: "webhookEndpointRecover",
            schema: recoverInput,
            run: recoverWebhookDeliveries,
            // The count is the answer: a retry gets the first count, not a new one.
            keep: (result) => result,
            rebuild: lastRecovery,
            replay: async (_ctx, kept) => kept,
          },
          { endpointId: input.id, since: input.since },
          key,
          ctx,
        ),
    }),
  };
});
