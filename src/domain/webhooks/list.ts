import type { WebhookEventState } from "../../generated/prisma/client.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { OUTBOX_LOG_PAGE, pageSize } from "../page-size.js";

/** What a page of an outbox log asks for: newest first, optionally in some states, 1 to 200 (50 by default). */
export interface OutboxLogPage {
  states?: WebhookEventState[] | null;
  first?: number | null;
}

/** The filter, order and size of a page of an outbox log: the notifications', or an endpoint's deliveries. */
export function outboxLogPage({ states, first }: OutboxLogPage) {
  return {
    where: states ? { state: { in: states } } : {},
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    take: pageSize("first", first, OUTBOX_LOG_PAGE),
  };
}

/** The calling merchant's notifications to notifyUrls, newest first, optionally only those in some states. */
export async function listWebhookEvents(ctx: DomainContext, input: OutboxLogPage) {
  const { merchantId } = requireMerchant(ctx);
  const { db } = await dashboardDatabase(ctx);
  const { where, ...page } = outboxLogPage(input);
  return db.webhookEvent.findMany({ where: { merchantId, endpointId: null, ...where }, ...page });
}
