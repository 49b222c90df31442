import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";

/** The audit trail of one of the calling merchant's requests, oldest first. */
export async function requestActivities(ctx: DomainContext, requestId: string) {
  const { merchantId } = requireMerchant(ctx);
  const { db } = await dashboardDatabase(ctx);
  return db.activity.findMany({ where: { requestId, merchantId }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });
}
