import { requestActivities } from "../../domain/audit/trail.js";
import type { Selectable } from "kysely";
import type { Activity as ActivityTable } from "../../generated/kysely/database.js";
import { builder } from "../builder.js";
import { PaymentRequest } from "./request.js";

const Activity = builder.objectRef<Selectable<ActivityTable>>("Activity").implement({
  description: "One state change in the audit trail. The trail is append-only.",
  fields: (t) => ({
    action: t.exposeString("action", {
      description: "request.created, request.paid, request.cancelled, request.expired, transaction.refunded, …",
    }),
    actor: t.exposeString("actor", { description: "Who did it: an API key prefix, `operator` or `system`." }),
    outcome: t.exposeString("outcome", { description: "What it came to." }),
    transactionId: t.exposeID("transactionId", { nullable: true, description: "The transaction it concerns, if any." }),
    correlationId: t.exposeString("correlationId", { nullable: true, description: "The HTTP request id of the call." }),
    at: t.expose("createdAt", { type: "DateTime", description: "When it happened." }),
  }),
});

builder.objectField(PaymentRequest, "activities", (t) =>
  t.field({
    type: [Activity],
    description: "The request's audit trail, oldest first (merchant keys only).",
    resolve: async (request, _args, ctx) => requestActivities(await ctx.reads.domain(), request.id),
  }),
);
