import type { EventType } from "../../generated/prisma/enums.js";
import type { Row } from "../../sql/rows.js";
import type { NotificationTransaction } from "../webhooks/events.js";
import { EVENT_OBJECT_CLAIM, EVENT_TYPE_NAMES, type EventTypeName } from "./types.js";

/**
 * An event as the events API answers it, REST and GraphQL alike: its dotted type, and its object
 * under the claim an endpoint's token carries it in (`transaction` or `request`), exactly as stored.
 */
export interface ApiEvent {
  eventId: string;
  type: EventTypeName;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  requestId: string;
  /** A payment's or refund's transaction, as notifications carry it. */
  transaction?: NotificationTransaction;
  /** A cancelled or expired request, as requests.info answers a merchant key, without its payment options and addresses. */
  request?: Record<string, unknown>;
}

export function presentEvent(event: Pick<Row<"event">, "id" | "type" | "createdAt" | "requestId" | "payload">): ApiEvent {
  return {
    eventId: event.id,
    type: EVENT_TYPE_NAMES[event.type],
    createdAt: event.createdAt.toISOString(),
    requestId: event.requestId,
    [EVENT_OBJECT_CLAIM[event.type]]: event.payload,
  };
}

const TYPE_NAMED = new Map(Object.entries(EVENT_TYPE_NAMES).map(([type, name]) => [name as string, type as EventType]));

/** The enum value of an event's dotted type (GraphQL names types by it). */
export const eventTypeOf = (event: ApiEvent): EventType => TYPE_NAMED.get(event.type)!;

/** The event's object: what it happened to. */
export const eventObject = (event: ApiEvent): unknown =>
  event[EVENT_OBJECT_CLAIM[eventTypeOf(event)] as "transaction" | "request"];
