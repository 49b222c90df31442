import { z } from "zod";
import { requireMerchant } from "../../domain/auth.js";
import type { DomainContext } from "../../domain/context.js";
import { instantText } from "../../domain/instants.js";
import { cursorParam } from "../../domain/cursors.js";
import { id, optional, parseInput, wholeNumber } from "../../domain/validation.js";
import { EVENT_PAGE } from "../../domain/page-size.js";
import { LIST_EVENTS_CODES, listEvents } from "../../domain/events/list.js";
import { SUBSCRIBABLE_NAMES, typeNameList } from "../../domain/events/types.js";
import { presentEventPage } from "./present.js";

/** events.list's parameters as REST gives them: text (or, for limit, a JSON integer), each optional. */
export const listEventsParams = z.object({
  types: optional(typeNameList).describe(
    `Comma-separated event types, any of ${SUBSCRIBABLE_NAMES}; all of them when not given.`,
  ),
  createdFrom: optional(instantText).describe("Created at or after this ISO 8601 instant."),
  createdTo: optional(instantText).describe("Created before this ISO 8601 instant."),
  requestId: optional(id).describe("Only the events of this request."),
  limit: optional(wholeNumber(1, EVENT_PAGE.max)).describe(
    `At most this many events, 1 to ${EVENT_PAGE.max} (default ${EVENT_PAGE.default}).`,
  ),
  after: optional(cursorParam).describe("The nextCursor of the page before."),
});

/** listEvents with REST's parameters (merchant keys only: a payer key is FORBIDDEN whatever it sends), as REST answers it. */
export async function listEventsWithParams(ctx: DomainContext, params: unknown) {
  requireMerchant(ctx);
  const { limit, after, ...filter } = parseInput(listEventsParams, LIST_EVENTS_CODES, params);
  return presentEventPage(await listEvents(ctx, filter, { limit, after }));
}
