import { pool, toUtcText } from "../../db.js";
import { queryRows, statement } from "../../sql/statements.js";
import { paymentRequests } from "../../sql/tables.js";
import { announceRequestChange } from "./changes.js";

/** Which open requests a sweep may expire: all of them (the worker's sweep), or one merchant's. */
export interface ExpiryScope {
  merchantId?: string;
}

/**
 * One batch of expiries, with their activity rows written by the same statement, so the trail never
 * misses one. Rows a payer holds locked are skipped: that pay will itself see the request as expired.
 */
const EXPIRE_BATCH = statement(
  `WITH expired AS (
     UPDATE payment_request SET status = 'EXPIRED', updated_at = $1::timestamp(3)
     WHERE id IN (
       SELECT id FROM payment_request
       WHERE status = 'NEW' AND expires_at <= $1::timestamp(3) AND ($2::uuid IS NULL OR merchant_id = $2::uuid)
       LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     RETURNING id, merchant_id
   )
   INSERT INTO activity (id, merchant_id, request_id, action, actor, outcome, created_at)
   SELECT gen_random_uuid(), merchant_id, id, 'request.expired', 'system', 'EXPIRED', $1::timestamp(3) FROM expired
   RETURNING request_id AS "requestId", merchant_id AS "merchantId"`,
  { requestId: paymentRequests.columns.id, merchantId: paymentRequests.columns.merchantId },
);

/**
 * Stores EXPIRED on open requests past their expiresAt (of `scope.merchantId` only, when given), in
 * batches. Returns how many were expired.
 */
export async function expireOverdueRequests(now: Date, scope: ExpiryScope = {}, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await queryRows(pool, EXPIRE_BATCH, [toUtcText(now), scope.merchantId ?? null, batchSize]);
    for (const { requestId, merchantId } of expired) announceRequestChange({ merchantId, requestId, change: "EXPIRED" });
    total += expired.length;
    if (expired.length < batchSize) return total;
  }
}
