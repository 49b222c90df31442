import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";

/** The audit trail of one of the calling merchant's requests, oldest first. */
export async function requestActivities(ctx: DomainContext, requestId: string) {
  const { merchantId } = requireMerchant(ctx);
  const { database } = await dashboardDatabase(ctx);
  return database
    .selectFrom("activity")
    .selectAll()
    .where("requestId", "=", requestId)
    .where("merchantId", "=", merchantId)
    .orderBy("createdAt")
    .orderBy("seq")
    .execute();
}
