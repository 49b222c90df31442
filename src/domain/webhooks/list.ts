import type { WebhookEventState } from "../../generated/prisma/client.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";

/** The calling merchant's notifications to notifyUrls, newest first, optionally only those in some states. */
export async function listWebhookEvents(
  ctx: DomainContext,
  input: { states?: WebhookEventState[] | null; first?: number | null },
) {
  const { merchantId } = requireMerchant(ctx);
  const { db } = await dashboardDatabase(ctx);
  return db.webhookEvent.findMany({
    where: { merchantId, endpointId: null, ...(input.states ? { state: { in: input.states } } : {}) },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(input.first ?? 50, 1), 200),
  });
}
