import { pool, toUtcText } from "../../db.js";
import { queryRows, statement } from "../../sql/statements.js";
import { paymentRequests } from "../../sql/tables.js";
import { currentTraceparent } from "../../tracing.js";
import { ENDPOINT_DELIVERIES, eventParts, outboxNotified } from "../events/record.js";
import { requestObjectSql } from "../events/request-object.js";
import { announceRequestChange } from "./changes.js";

/** Which open requests a sweep may expire: all of them (the worker's sweep), or one merchant's. */
export interface ExpiryScope {
  merchantId?: string;
}

/**
 * One batch of expiries, with their activity rows and `request.expired` events (and the events'
 * deliveries) written by the same statement, so the trail never misses one and no expiry is
 * announced twice: a request is expired by one statement only, whichever worker sweeps. Rows a
 * payer holds locked are skipped: that pay will itself see the request as expired.
 */
const EXPIRE_BATCH = statement(
  `WITH expired AS (
     UPDATE payment_request SET status = 'EXPIRED', updated_at = $1::timestamp(3)
     WHERE id IN (
       SELECT id FROM payment_request
       WHERE status = 'NEW' AND expires_at <= $1::timestamp(3) AND ($2::uuid IS NULL OR merchant_id = $2::uuid)
       LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     RETURNING *
   ),
   activity AS (
     INSERT INTO activity (id, merchant_id, request_id, action, actor, outcome, created_at)
     SELECT gen_random_uuid(), merchant_id, id, 'request.expired', 'system', 'EXPIRED', $1::timestamp(3) FROM expired
   ),
   ${eventParts(
     `SELECT x.merchant_id, x.id AS request_id, NULL::uuid AS transaction_id, 'REQUEST_EXPIRED' AS type,
             ${requestObjectSql("x", "expired")} AS payload, $1::timestamp(3) AS created_at FROM expired x`,
     { correlationId: "NULL::text", traceparent: "$4::text" },
   ).join(",\n")}
   SELECT x.id AS "requestId", x.merchant_id AS "merchantId"
   FROM expired x, (SELECT ${outboxNotified(ENDPOINT_DELIVERIES)}) AS announced`,
  { requestId: paymentRequests.columns.id, merchantId: paymentRequests.columns.merchantId },
);

/**
 * Stores EXPIRED on open requests past their expiresAt (of `scope.merchantId` only, when given), in
 * batches. Returns how many were expired.
 */
export async function expireOverdueRequests(now: Date, scope: ExpiryScope = {}, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await queryRows(pool, EXPIRE_BATCH, [
      toUtcText(now),
      scope.merchantId ?? null,
      batchSize,
      currentTraceparent(),
    ]);
    for (const { requestId, merchantId } of expired) announceRequestChange({ merchantId, requestId, change: "EXPIRED" });
    total += expired.length;
    if (expired.length < batchSize) return total;
  }
}
