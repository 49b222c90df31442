import { z } from "zod";
import { toUtcText } from "../../db.js";
import { boolean } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { listOf } from "../../sql/table.js";
import { events as eventTable } from "../../sql/tables.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { EVENT_PAGE, pageSize } from "../page-size.js";
import { cursor, id, optional, parseInput } from "../validation.js";
import { presentEvent, type ApiEvent } from "./present.js";
import { SUBSCRIBABLE_EVENT_TYPES, SUBSCRIBABLE_NAMES, type SubscribableEventType } from "./types.js";

/** What narrows the list; every part optional. */
export interface EventFilter {
  /** Any of these types; none given (or an empty list) is all of them. */
  types?: readonly string[] | null;
  /** Created at or after this. */
  createdFrom?: Date | null;
  /** Created before this. */
  createdTo?: Date | null;
  /** Of this request: an identifier that names none of the merchant's requests lists nothing. */
  requestId?: string | null;
}

export interface EventPageRequest {
  /** At most this many events (1 to 100, 20 when not given). */
  limit?: number | null;
  /** The `nextCursor` of the page before. */
  after?: string | null;
}

/** A page of events, newest first, as both transports answer it; `nextCursor` is null on the last page. */
export interface EventPage {
  events: ApiEvent[];
  nextCursor: string | null;
}

const listInput = z.object({
  types: z
    .array(
      z.enum(SUBSCRIBABLE_EVENT_TYPES, {
        error: `must name event types of ${SUBSCRIBABLE_NAMES} (test events are never listed)`,
      }),
    )
    .nullish(),
  createdFrom: z.date({ error: "must be an instant" }).nullish(),
  createdTo: z.date({ error: "must be an instant" }).nullish(),
  requestId: optional(id),
  after: optional(cursor),
});
/** The codes of the list's parameters that have their own (the rest are BAD_REQUEST). */
export const LIST_EVENTS_CODES = { types: "INVALID_EVENT_TYPE", requestId: "INVALID_REQUEST_ID" } as const;

/**
 * A cursor is the position of the page's last event in the list's order, (createdAt, id), behind
 * a prefix of this list: another list's cursor (the connections' `GPC:S:<id>`) never reads as one.
 * It is valid only while it names one of the caller's events exactly, which the list checks in
 * the statement that reads the page, so a tampered cursor, or one of another merchant's list, is
 * BAD_REQUEST rather than a page that would tell whether that position exists elsewhere.
 */
const CURSOR = /^events:(\d{1,15}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** 9999-12-31T23:59:59.999Z, the last instant a timestamp(3) of a four-digit year holds. */
const LAST_INSTANT = 253_402_300_799_999;

const notThisList = () => new ValidationError("BAD_REQUEST", "after must be a cursor returned by this list.");

const eventCursor = (event: { createdAt: Date; id: string }): string =>
  Buffer.from(`events:${event.createdAt.getTime()}:${event.id}`).toString("base64url");

function readCursor(cursor: string): { createdAt: Date; id: string } {
  const parts = CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const position = parts && { createdAt: new Date(Number(parts[1])), id: parts[2]! };
  // Only the cursor exactly as issued: another spelling of the same bytes (padding, base64's '+/'),
  // or of the same number (leading zeros), is refused, and so is an instant the database cannot hold.
  if (!position || position.createdAt.getTime() > LAST_INSTANT || eventCursor(position) !== cursor) throw notThisList();
  return position;
}

/**
 * One page of a merchant's events, newest first by (created_at, id): those before a position in
 * that order (the cursor's, or createdTo's), and whether the cursor's position (when one is given,
 * $5 and $6) is one of the merchant's events. The position is a row comparison that the index
 * (merchant_id, created_at DESC, id DESC) starts its scan at, with plain parameters so that the
 * prepared statement's generic plan is that ordered scan, stopping at the page's end; a request's
 * events are read by the request's index instead (a request has a few). Events written while a
 * client pages are newer than its first page, so later pages neither repeat nor skip any. A page
 * reads one more event than it answers, to tell whether another page follows.
 */
const listStatement = (ofRequest: boolean) =>
  statement(
    `WITH start AS (
       SELECT $5::uuid IS NULL OR EXISTS (
         SELECT FROM event c WHERE c.id = $5::uuid AND c.merchant_id = $1::uuid AND c.created_at = $6::timestamp(3)) AS known)
     SELECT s.known, (
       SELECT ${eventTable.jsonList("e", "e.created_at DESC, e.id DESC")}
       FROM (
         SELECT * FROM event e
         WHERE s.known AND e.merchant_id = $1::uuid ${ofRequest ? "AND e.request_id = $9::uuid" : ""}
           AND (e.created_at, e.id) < ($2::timestamp(3), $3::uuid) AND e.created_at >= $4::timestamp(3)
           AND e.type = ANY ($7::"EventType"[])
         ORDER BY e.created_at DESC, e.id DESC
         LIMIT $8
       ) e) AS events
     FROM start s`,
    { known: boolean(), events: listOf(eventTable) },
  );
const LIST_EVENTS = listStatement(false);
const LIST_REQUEST_EVENTS = listStatement(true);

/** Positions in the list's order: before every event, and before every event of an instant. */
const LAST_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
const FIRST_ID = "00000000-0000-0000-0000-000000000000";

/** The earlier of two positions (createdAt, id). */
const earlier = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  a.createdAt.getTime() !== b.createdAt.getTime() ? (a.createdAt < b.createdAt ? a : b) : a.id < b.id ? a : b;

/**
 * The calling merchant's events (merchant keys only), newest first, filtered, a page of them, for
 * reconciling without webhooks: every payment, refund, cancellation and expiry, with the object
 * its endpoint token carries.
 */
export async function listEvents(ctx: DomainContext, filter: EventFilter = {}, page: EventPageRequest = {}): Promise<EventPage> {
  const { merchantId } = requireMerchant(ctx);
  const given = parseInput(listInput, LIST_EVENTS_CODES, { ...filter, after: page.after });
  const limit = pageSize("limit (first, in GraphQL)", page.limit, EVENT_PAGE);
  const position = given.after === undefined ? null : readCursor(given.after);
  const types: readonly SubscribableEventType[] = given.types?.length ? [...new Set(given.types)] : SUBSCRIBABLE_EVENT_TYPES;
  // createdTo is exclusive: before it is before (createdTo, the least id) in the list's order.
  let before = position ?? { createdAt: new Date(LAST_INSTANT), id: LAST_ID };
  if (given.createdTo) before = earlier(before, { createdAt: given.createdTo, id: FIRST_ID });
  const { pool } = await dashboardDatabase(ctx);
  const values = [
    merchantId,
    toUtcText(before.createdAt),
    before.id,
    given.createdFrom ? toUtcText(given.createdFrom) : "-infinity",
    position?.id ?? null,
    position && toUtcText(position.createdAt),
    types,
    limit + 1,
  ];
  const row = given.requestId
    ? await queryRow(pool, LIST_REQUEST_EVENTS, [...values, given.requestId])
    : await queryRow(pool, LIST_EVENTS, values);
  if (!row!.known) throw notThisList();
  const rows = row!.events.slice(0, limit);
  const last = rows.at(-1);
  return { events: rows.map(presentEvent), nextCursor: row!.events.length > limit && last ? eventCursor(last) : null };
}
