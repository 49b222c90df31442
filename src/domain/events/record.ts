import { sql, type RawBuilder } from "kysely";
import type { Param } from "../../sql/compiled.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { TEST_EVENT_NOTICE, WEBHOOK_CHANNEL } from "../deliveries/outbox.js";

/** The call a write statement's events and deliveries carry: its request id and, when traced, its traceparent. */
export interface CallParams {
  correlationId: string | null;
  traceparent: string | null;
}

/**
 * The part of a write statement (the body of its CTE `newEvents`) that writes the events `source`
 * selects: (merchant_id, request_id, transaction_id, type, payload, created_at). With
 * `endpointDeliveriesInsert` (the CTE `endpointDeliveries`) in the same statement, an event exists,
 * with a delivery to each endpoint subscribed to it, exactly when its change committed.
 */
export const newEventsInsert = (qb: QueryBuilder, source: RawBuilder<unknown>) =>
  qb
    .insertInto("event")
    .columns(["id", "merchantId", "type", "requestId", "transactionId", "payload", "createdAt"])
    .expression(
      sql`SELECT gen_random_uuid(), s.merchant_id, s.type::"EventType", s.request_id, s.transaction_id, s.payload, s.created_at FROM (${source}) s`,
    )
    .returning(["id", "merchantId", "type", "requestId", "transactionId", "payload", "createdAt"]);

/**
 * One delivery of each new event (the CTE `new_events`) to every endpoint of its merchant that
 * subscribes to its type, carrying the call's request id and traceparent, which the worker's logs
 * and traces carry. A disabled endpoint's delivery is written HELD: not sent, but a recovery sends
 * it. The endpoints are read FOR KEY SHARE, the lock the deliveries' foreign key takes anyway, taken
 * before the rows are written: one deleted meanwhile is skipped, not a foreign-key violation that
 * would fail the payment. Returns the deliveries' ids: name the CTE in `notified` so the worker
 * hears of them on commit.
 */
export const endpointDeliveriesInsert = (qb: QueryBuilder, param: Param<CallParams>) =>
  qb
    .insertInto("delivery")
    .columns([
      "id",
      "merchantId",
      "requestId",
      "endpointId",
      "destination",
      "eventId",
      "type",
      "url",
      "payload",
      "state",
      "correlationId",
      "traceparent",
      "nextAttemptAt",
      "createdAt",
      "updatedAt",
    ])
    .expression(
      sql`SELECT gen_random_uuid(), ev.merchant_id, ev.request_id, ep.id, ep.id, ev.id, ev.type, ep.url, ev.payload,
                 CASE WHEN ep.enabled THEN 'PENDING' ELSE 'HELD' END::"DeliveryState",
                 ${param("correlationId")}::text, ${param("traceparent")}::text, ev.created_at, ev.created_at, ev.created_at
          FROM new_events ev JOIN webhook_endpoint ep ON ep.merchant_id = ev.merchant_id AND ev.type = ANY (ep.event_types)
          FOR KEY SHARE OF ep`,
    )
    .returning("id");

/** outboxNotified as the query builder's expression. */
export const notified = (...ctes: string[]): RawBuilder<number> => sql<number>`${sql.raw(outboxNotified(...ctes))}`;

/**
 * An expression for a statement's final SELECT that wakes the worker with NOTIFY on commit when
 * any of the named CTEs (of outbox rows) wrote a row; its value is how many they wrote. (PostgreSQL
 * sends one notification for a channel and payload per transaction, however often it is asked.)
 */
export function outboxNotified(...ctes: string[]): string {
  return ctes.map((cte) => `(SELECT count(pg_notify('${WEBHOOK_CHANNEL}', '')) FROM ${cte})`).join(" + ");
}

/** outboxNotified of test events: the worker claims for their lane when it hears of them. */
export const testEventsNotified = (cte: string): string =>
  `(SELECT count(pg_notify('${WEBHOOK_CHANNEL}', '${TEST_EVENT_NOTICE}')) FROM ${cte})`;
