import { sql } from "kysely";
import { database } from "../../db.js";
import { compiled } from "../../sql/compiled.js";
import { currentTraceparent } from "../../tracing.js";
import { endpointDeliveriesInsert, newEventsInsert, notified, type CallParams } from "../events/record.js";
import { requestChangeEvents } from "../events/request-object.js";
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
const EXPIRE_BATCH = compiled<
  { at: Date; merchantId: string | null; batchSize: number } & CallParams,
  { requestId: string; merchantId: string }
>((qb, param) =>
  qb
    .with("expired", () =>
      qb
        .updateTable("paymentRequest")
        .set({ status: "EXPIRED", updatedAt: param("at") })
        .where("id", "in", (eb) =>
          eb
            .selectFrom("paymentRequest")
            .select("id")
            .where("status", "=", "NEW")
            .where("expiresAt", "<=", param("at"))
            .where((eb) =>
              eb.or([
                eb(eb.cast(eb.val(param("merchantId")), "uuid"), "is", null),
                eb("merchantId", "=", eb.val(param("merchantId"))),
              ]),
            )
            .limit(param("batchSize"))
            .forUpdate()
            .skipLocked(),
        )
        .returningAll(),
    )
    .with("activity", (db) =>
      db
        .insertInto("activity")
        .columns(["id", "merchantId", "requestId", "action", "actor", "outcome", "createdAt"])
        .expression((eb) =>
          eb
            .selectFrom("expired")
            .select([
              sql<string>`gen_random_uuid()`.as("id"),
              "merchantId",
              "id as requestId",
              sql.lit("request.expired").as("action"),
              sql.lit("system").as("actor"),
              sql.lit("EXPIRED").as("outcome"),
              "updatedAt as createdAt",
            ]),
        ),
    )
    .with("newEvents", () => newEventsInsert(qb, requestChangeEvents("expired")))
    .with("endpointDeliveries", () => endpointDeliveriesInsert(qb, param))
    .selectFrom("expired as x")
    .select(["x.id as requestId", "x.merchantId"])
    .select(notified("endpoint_deliveries").as("announced")),
);

/**
 * Stores EXPIRED on open requests past their expiresAt (of `scope.merchantId` only, when given), in
 * batches. Returns how many were expired.
 */
export async function expireOverdueRequests(now: Date, scope: ExpiryScope = {}, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await EXPIRE_BATCH(database, {
      at: now,
      merchantId: scope.merchantId ?? null,
      batchSize,
      correlationId: null,
      traceparent: currentTraceparent(),
    });
    for (const { requestId, merchantId } of expired) announceRequestChange({ merchantId, requestId, change: "EXPIRED" });
    total += expired.length;
    if (expired.length < batchSize) return total;
  }
}
