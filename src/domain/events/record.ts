import { TEST_EVENT_NOTICE, WEBHOOK_CHANNEL } from "../deliveries/outbox.js";

/**
 * The CTEs that write events, and one delivery of each to every endpoint of the event's merchant
 * that subscribes to its type, in the statement that makes them happen: an event exists exactly
 * when its change committed. `source` is a SELECT of (merchant_id, request_id, transaction_id, type,
 * payload, created_at); `call` gives SQL for the call's request id and traceparent, which the worker's
 * logs and traces carry. A disabled endpoint's delivery is written HELD: not sent, but a recovery
 * sends it. The endpoints are read FOR KEY SHARE, the lock the deliveries' foreign key takes anyway,
 * taken before the rows are written: one deleted meanwhile is skipped, not a foreign-key violation
 * that would fail the payment. Name the deliveries CTE in `outboxNotified` so the worker hears of
 * them on commit.
 */
export function eventParts(source: string, call: { correlationId: string; traceparent: string }): string[] {
  return [
    `new_events AS (
       INSERT INTO event (id, merchant_id, type, request_id, transaction_id, payload, created_at)
       SELECT gen_random_uuid(), s.merchant_id, s.type::"EventType", s.request_id, s.transaction_id, s.payload, s.created_at
       FROM (${source}) s
       RETURNING id, merchant_id, type, request_id, transaction_id, payload, created_at)`,
    `${ENDPOINT_DELIVERIES} AS (
       INSERT INTO webhook_event (id, merchant_id, request_id, endpoint_id, destination, event_id, type, url, payload, state,
                                  correlation_id, traceparent, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), ev.merchant_id, ev.request_id, ep.id, ep.id, ev.id, ev.type, ep.url, ev.payload,
              CASE WHEN ep.enabled THEN 'PENDING' ELSE 'HELD' END::"WebhookEventState",
              ${call.correlationId}, ${call.traceparent}, ev.created_at, ev.created_at, ev.created_at
       FROM new_events ev JOIN webhook_endpoint ep ON ep.merchant_id = ev.merchant_id AND ev.type = ANY (ep.event_types)
       FOR KEY SHARE OF ep
       RETURNING id)`,
  ];
}

/** The CTE of eventParts holding the endpoint deliveries it wrote. */
export const ENDPOINT_DELIVERIES = "endpoint_deliveries";

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
