import { db, Prisma } from "../../db.js";
import { announceRequestChange } from "./changes.js";

/** Which open requests a sweep may expire: all of them (the worker's sweep), or one merchant's. */
export interface ExpiryScope {
  merchantId?: string;
}

/**
 * Stores EXPIRED on open requests past their expiresAt (of `scope.merchantId` only, when given), in
 * batches, skipping rows a payer holds locked (that pay will itself see the request as expired).
 * Returns how many were expired.
 */
export async function expireOverdueRequests(now: Date, scope: ExpiryScope = {}, batchSize = 1000): Promise<number> {
  const ofMerchant = scope.merchantId === undefined ? Prisma.empty : Prisma.sql`AND merchant_id = ${scope.merchantId}::uuid`;
  let total = 0;
  for (;;) {
    // The activity rows are written by the same statement, so the trail never misses an expiry.
    const expired = await db.$queryRaw<{ requestId: string; merchantId: string }[]>`
      WITH expired AS (
        UPDATE payment_request SET status = 'EXPIRED', updated_at = ${now}
        WHERE id IN (
          SELECT id FROM payment_request
          WHERE status = 'NEW' AND expires_at <= ${now} ${ofMerchant}
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
