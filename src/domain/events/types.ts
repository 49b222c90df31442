import { z } from "zod";
import type { EventType } from "../../generated/prisma/enums.js";

/**
 * Event types by the names tokens, REST and the docs use. GraphQL names them by the enum's
 * keys (PAYMENT_COMPLETED), which a dotted name cannot be.
 */
export const EVENT_TYPE_NAMES = {
  PAYMENT_COMPLETED: "payment.completed",
  REFUND_COMPLETED: "refund.completed",
  REQUEST_CANCELLED: "request.cancelled",
  REQUEST_EXPIRED: "request.expired",
  PING: "ping",
} as const satisfies Record<EventType, string>;

export type EventTypeName = (typeof EVENT_TYPE_NAMES)[EventType];

/** The types an endpoint may subscribe to and the events API lists: every one but the test event. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  "PAYMENT_COMPLETED",
  "REFUND_COMPLETED",
  "REQUEST_CANCELLED",
  "REQUEST_EXPIRED",
] as const satisfies readonly EventType[];
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

const byName = new Map<string, SubscribableEventType>(SUBSCRIBABLE_EVENT_TYPES.map((type) => [EVENT_TYPE_NAMES[type], type]));

/** The subscribable type a dotted name names, or undefined. */
export const subscribableTypeNamed = (name: string): SubscribableEventType | undefined => byName.get(name);

/**
 * The name of the claim that carries an event's object in an endpoint's token, and of its field in
 * the events API: a transaction for payments and refunds, a request for cancellation and expiry,
 * the endpoint itself for a test event.
 */
export const EVENT_OBJECT_CLAIM = {
  PAYMENT_COMPLETED: "transaction",
  REFUND_COMPLETED: "transaction",
  REQUEST_CANCELLED: "request",
  REQUEST_EXPIRED: "request",
  PING: "endpoint",
} as const satisfies Record<EventType, string>;

/** The names an endpoint or a list may ask for, for messages and docs: "payment.completed, refund.completed, …". */
export const SUBSCRIBABLE_NAMES = SUBSCRIBABLE_EVENT_TYPES.map((type) => EVENT_TYPE_NAMES[type]).join(", ");

/** Comma-separated dotted names (REST's `types`, the CLI's `--types`), each trimmed, as their enum values. */
export const typeNameList = z.string().transform((text, ctx) => {
  const names = text.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !subscribableTypeNamed(name));
  if (unknown === undefined) return names.map((name) => subscribableTypeNamed(name)!);
  ctx.addIssue({ code: "custom", message: `names ${JSON.stringify(unknown)}, not one of ${SUBSCRIBABLE_NAMES}` });
  return z.NEVER;
});
