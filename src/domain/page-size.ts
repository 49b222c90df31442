import { ValidationError } from "./errors.js";

/** How many items a list's page holds when its size is not given, and at most. */
export interface PageBounds {
  default: number;
  max: number;
}

/** `paymentRequests` and `transactions`, GraphQL's Relay connections (`first`, `last`). */
export const CONNECTION_PAGE: PageBounds = { default: 20, max: 100 };
/** The events list: GraphQL's `events(first)`, REST's `events.list` (`limit`). */
export const EVENT_PAGE: PageBounds = { default: 20, max: 100 };
/** A delivery log: the notifications (`webhookEvents`) and an endpoint's `deliveries` (`first`). */
export const OUTBOX_LOG_PAGE: PageBounds = { default: 50, max: 200 };

/**
 * The size of a page a caller asked for with `name` (`first`, `last` or `limit`): a whole number
 * from 1 to the list's most, or its default when not given. Anything else (0, a negative number,
 * more than the most) is BAD_REQUEST and never clamped, so a caller is not handed another number of
 * items than it asked for without being told. Every list's page size is read here.
 */
export function pageSize(name: string, given: number | null | undefined, bounds: PageBounds): number {
  if (given === null || given === undefined) return bounds.default;
  if (Number.isInteger(given) && given >= 1 && given <= bounds.max) return given;
  throw new ValidationError("BAD_REQUEST", `${name} must be a whole number from 1 to ${bounds.max}.`);
}
