import { db } from "../../db.js";
import { announceRequestChange } from "./changes.js";

/**
 * Stores EXPIRED on open requests past their expiresAt, in batches, skipping rows a payer holds
 * locked (that pay will itself see the request as expired). Returns how many were expired.
 */
export async function expireOverdueRequests(now: Date, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    // The activity rows are written by the same statement, so the trail never misses an expiry.
    const expired = await db.$queryRaw<{ requestId: string; merchantId: string }[]>`
      WITH expired AS (
        UPDATE payment_request SET status = 'EXPIRED', updated_at = ${now}
        WHERE id IN (
          SELECT id FROM payment_request
          WHERE status = 'NEW' AND expires_at <= ${now}
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED
        )
        RETURNING id, merchant_id
      )
      INSERT INTO activity (id, merchant_id, request_id, action, actor, outcome, created_at)
      SELECT gen_random_uuid(), merchant_id, id, 'request.expired', 'system', 'EXPIRED', ${now} FROM expired
      RETURNING request_id::text AS "requestId", merchant_id::text AS "merchantId"`;
    for (const { requestId, merchantId } of expired) announceRequestChange({ merchantId, requestId, change: "EXPIRED" });
    total += expired.length;
    if (expired.length < batchSize) return total;
  }
}
