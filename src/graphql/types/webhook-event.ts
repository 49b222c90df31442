import { requireMerchant } from "../../domain/auth.js";
import { OUTBOX_LOG_PAGE, pageSize } from "../../domain/page-size.js";
import type { DeliveryState } from "../../generated/prisma/client.js";
import { redeliverNotification } from "../../domain/deliveries/redeliver.js";
import { builder } from "../builder.js";
import { prismaOn } from "../prisma.js";

/** What a page of an outbox log asks for: newest first, optionally in some states, 1 to 200 (50 by default). */
export interface OutboxLogPage {
  states?: DeliveryState[] | null;
  first?: number | null;
}

/** The filter, order and size of a page of an outbox log, as Prisma reads it: the notifications', or an endpoint's deliveries. */
export function outboxLogPage({ states, first }: OutboxLogPage) {
  return {
    where: states ? { state: { in: states } } : {},
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    take: pageSize("first", first, OUTBOX_LOG_PAGE),
  };
}

export const WebhookEventStateEnum = builder.enumType("WebhookEventState", {
  description: "Delivery state of a notification.",
  values: {
    PENDING: { description: "Waiting for its next attempt." },
    DELIVERED: { description: "The webhook answered 2xx." },
    EXHAUSTED: { description: "Every allowed attempt failed." },
    REFUSED: { description: "Not sent: the destination is not allowed (a private address)." },
    HELD: { description: "Not sent: its endpoint was disabled. A recovery sends it." },
  } as const,
});

export const WebhookAttemptOutcomeEnum = builder.enumType("WebhookAttemptOutcome", {
  description: "What one delivery attempt came to.",
  values: {
    IN_FLIGHT: { description: "Under way, or cut off when its worker stopped mid-delivery (a later attempt follows)." },
    DELIVERED: { description: "Answered 2xx in time." },
    FAILED: { description: "Another status, a timeout or a network error." },
    REFUSED: { description: "The destination is not allowed." },
  } as const,
});

builder.prismaObject("WebhookAttempt", {
  description: "One try at delivering a notification.",
  fields: (t) => ({
    number: t.exposeInt("number", { description: "1 for the first attempt." }),
    startedAt: t.expose("startedAt", { type: "DateTime", description: "When the attempt started." }),
    durationMs: t.exposeInt("durationMs", {
      nullable: true,
      description: "How long it took, in milliseconds; null while in flight.",
    }),
    outcome: t.field({ type: WebhookAttemptOutcomeEnum, description: "What it came to.", resolve: (a) => a.outcome }),
    statusCode: t.exposeInt("statusCode", { nullable: true, description: "The webhook's HTTP status, if it answered." }),
    error: t.exposeString("error", { nullable: true, description: "Why it failed." }),
    responseExcerpt: t.exposeString("responseExcerpt", { nullable: true, description: "The first bytes of the answer." }),
  }),
});

/** The deliveries that are notifications to a request's notifyUrl (WebhookEvent): those to no endpoint. */
export const NOTIFICATIONS = { endpointId: null } as const;

/**
 * What every delivery in the outbox shows, a notification to a notifyUrl (WebhookEvent) as a
 * delivery to an endpoint (WebhookDelivery): where it goes, its state and its attempts.
 */
export const WebhookOutboxEntry = builder.prismaInterface("Delivery", {
  variant: "WebhookOutboxEntry",
  description: "One token's delivery, with its attempts: a notification to a notifyUrl, or a delivery to an endpoint.",
  fields: (t) => ({
    url: t.exposeString("url", { description: "Where it is delivered (its latest attempt went)." }),
    state: t.field({ type: WebhookEventStateEnum, description: "Delivery state.", resolve: (e) => e.state }),
    attemptCount: t.exposeInt("attempts", { description: "Attempts made so far." }),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime", description: "When a pending one is next attempted." }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true, description: "When the receiver accepted it." }),
    lastError: t.exposeString("lastError", { nullable: true, description: "The latest failure." }),
    attempts: t.relation("deliveryAttempts", {
      description: "Every attempt, first first.",
      query: { orderBy: { number: "asc" } },
    }),
  }),
  resolveType: (entry) => (entry.endpointId === NOTIFICATIONS.endpointId ? "WebhookEvent" : "WebhookDelivery"),
});

export const WebhookEvent = builder.prismaObject("Delivery", {
  name: "WebhookEvent",
  description: "A notification of a completed transaction to the request's notifyUrl.",
  interfaces: [WebhookOutboxEntry],
  fields: (t) => ({
    id: t.exposeID("id", { description: "The event id, also the token's jti." }),
    transaction: t.relation("transaction", { description: "The transaction announced.", onNull: "error" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the transaction completed." }),
  }),
});

builder.queryFields((t) => ({
  webhookEvents: t.prismaField({
    type: ["Delivery"],
    description: "The merchant's notifications, newest first; filter by state to find failed deliveries.",
    args: {
      states: t.arg({ type: [WebhookEventStateEnum], description: "Only events in these states." }),
      first: t.arg.int({
        description: `How many: 1 to ${OUTBOX_LOG_PAGE.max} (${OUTBOX_LOG_PAGE.default} when not given).`,
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      const { merchantId } = requireMerchant(await ctx.reads.domain());
      const { where, ...page } = outboxLogPage(args);
      return prismaOn(ctx.reads.settled()).delivery.findMany({
        ...query,
        where: { merchantId, ...NOTIFICATIONS, ...where },
        ...page,
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  webhookEventRedeliver: t.field({
    type: WebhookEvent,
    description: "Attempt a notification again now: the same token claims, the same jti.",
    args: { eventId: t.arg.id({ required: true, description: "The event to redeliver." }) },
    errors: {},
    resolve: async (_root, args, ctx) => redeliverNotification(await ctx.domain(), { eventId: args.eventId }),
  }),
}));
