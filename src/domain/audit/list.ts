import { db } from "../../db.js";
import { requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";

/** The audit trail of one of the calling merchant's requests, oldest first. */
export async function requestActivities(ctx: DomainContext, requestId: string) {
  const { merchantId } = requireMerchant(ctx);
  return db.activity.findMany({ where: { requestId, merchantId }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });
}
