import { z } from "zod";
import { requireMerchant } from "../auth.js";
import type { DomainContext } from "../context.js";
import { isoInstant } from "../instants.js";
import { id, optional, parseInput, wholeNumber } from "../validation.js";
import { listEvents, MAX_EVENT_PAGE, type EventPage } from "./list.js";
import { EVENT_TYPE_NAMES, SUBSCRIBABLE_EVENT_TYPES, subscribableTypeNamed } from "./types.js";

const NAMES = SUBSCRIBABLE_EVENT_TYPES.map((type) => EVENT_TYPE_NAMES[type]).join(", ");

/** Comma-separated dotted names, each trimmed, as their enum values. */
const typeNames = z.string().transform((text, ctx) => {
  const names = text.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !subscribableTypeNamed(name));
  if (unknown === undefined) return names.map((name) => subscribableTypeNamed(name)!);
  ctx.addIssue({ code: "custom", message: `names ${JSON.stringify(unknown)}, not one of ${NAMES}` });
  return z.NEVER;
});

const instant = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const date = isoInstant(text);
    if (date) return date;
    ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date or date and time, in the years 1 to 9999" });
    return z.NEVER;
  });

/** events.list's parameters as REST gives them: text (or, for limit, a JSON integer), each optional. */
export const listEventsParams = z.object({
  types: optional(typeNames).describe(`Comma-separated event types, any of ${NAMES}; all of them when not given.`),
  createdFrom: optional(instant).describe("Created at or after this ISO 8601 instant."),
  createdTo: optional(instant).describe("Created before this ISO 8601 instant."),
  requestId: optional(id).describe("Only the events of this request."),
  limit: optional(wholeNumber(1, MAX_EVENT_PAGE)).describe(`At most this many events, 1 to ${MAX_EVENT_PAGE} (default 20).`),
  after: optional(z.string()).describe("The nextCursor of the page before."),
});
const codes = { types: "INVALID_EVENT_TYPE", requestId: "INVALID_REQUEST_ID" } as const;

/** listEvents with REST's parameters (merchant keys only: a payer key is FORBIDDEN whatever it sends). */
export async function listEventsWithParams(ctx: DomainContext, params: unknown): Promise<EventPage> {
  requireMerchant(ctx);
  const { limit, after, ...filter } = parseInput(listEventsParams, codes, params);
  return listEvents(ctx, filter, { limit, after });
}
