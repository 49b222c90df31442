import { listEvents, type EventPage as EventPageShape, type ListedEvent } from "../../domain/events/list.js";
import { EVENT_PAGE } from "../../domain/page-size.js";
import { EVENT_TYPE_NAMES } from "../../domain/events/types.js";
import { builder } from "../builder.js";
import { parameterCodes } from "../strict-variables.js";
import { merchantsOnly } from "../visibility.js";
import { EventTypeEnum } from "./event-type.js";
import { PaymentRequest } from "./request.js";

/** An event as the list reads it (its row). */
const Event = builder.objectRef<ListedEvent>("Event").implement({
  description:
    "Something that happened to one of the merchant's payment requests: what its webhook endpoints are sent, kept for reconciling without them.",
  ...merchantsOnly,
  fields: (t) => ({
    id: t.exposeID("id", { description: "The event id, also the jti of its endpoint tokens." }),
    type: t.expose("type", { type: EventTypeEnum, description: "What happened." }),
    name: t.string({
      description: "The type's dotted name, as REST and the tokens' `type` claim give it.",
      resolve: (event) => EVENT_TYPE_NAMES[event.type],
    }),
    createdAt: t.expose("createdAt", {
      type: "DateTime",
      description: "When it happened: the transaction's time, or when the request was cancelled or expired.",
    }),
    requestId: t.exposeID("requestId", { description: "The payment request it happened to." }),
    request: t.field({
      type: PaymentRequest,
      description: "The payment request it happened to, as it is now.",
      resolve: (event, _args, ctx) => ctx.loadRequest(event.requestId),
    }),
    data: t.field({
      type: "JSON",
      description:
        "The event's object as it was when the event happened, as its endpoint token carries it: the transaction " +
        "(payments and refunds, the notification's transaction) or the request (cancellations and expiries).",
      resolve: (event) => event.payload,
    }),
  }),
});

const EventPage = builder.objectRef<EventPageShape>("EventPage").implement({
  description: "A page of events, newest first.",
  fields: (t) => ({
    events: t.field({ type: [Event], description: "The page's events, newest first.", resolve: (page) => page.events }),
    nextCursor: t.exposeString("nextCursor", {
      nullable: true,
      description: "Pass as `after` for the next page; null on the last page.",
    }),
  }),
});

builder.queryFields((t) => ({
  events: t.field({
    type: EventPage,
    description:
      "The merchant's events, newest first, a page at a time (merchant keys only): payments, refunds, cancellations " +
      "and expiries, for reconciling without webhooks.",
    extensions: parameterCodes({ types: "INVALID_EVENT_TYPE", requestId: "INVALID_REQUEST_ID" }),
    args: {
      first: t.arg.int({ description: `How many events: 1 to ${EVENT_PAGE.max} (${EVENT_PAGE.default} when not given).` }),
      after: t.arg.string({ description: "The nextCursor of the page before." }),
      types: t.arg({ type: [EventTypeEnum], description: "Only events of these types (any but PING); all when not given." }),
      createdFrom: t.arg({ type: "DateTime", description: "Created at or after this." }),
      createdTo: t.arg({ type: "DateTime", description: "Created before this." }),
      requestId: t.arg.id({ description: "Only the events of this request." }),
    },
    resolve: async (_root, { first, after, ...filter }, ctx) =>
      listEvents(await ctx.reads.domain(), filter, { limit: first, after }),
  }),
}));
