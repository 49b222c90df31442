import { sql } from "kysely";
import { z } from "zod";
import { compiled } from "../../sql/compiled.js";
import { fromRowsJson, rowJson, type Row } from "../../sql/rows.js";
import { requireMerchant } from "../auth.js";
import { dashboardDatabase, type DomainContext } from "../context.js";
import { cursorParam, eventCursors, LAST_INSTANT, type EventPosition } from "../cursors.js";
import { EVENT_PAGE, pageSize } from "../page-size.js";
import { id, optional, parseInput } from "../validation.js";
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
/** An event as the list reads it: its row, without its merchant and transaction ids. */
export type ListedEvent = Pick<Row<"event">, "id" | "type" | "createdAt" | "requestId" | "payload">;

export interface EventPage {
  events: ListedEvent[];
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
  after: optional(cursorParam),
});
/** The codes of the list's parameters that have their own (the rest are BAD_REQUEST). */
export const LIST_EVENTS_CODES = { types: "INVALID_EVENT_TYPE", requestId: "INVALID_REQUEST_ID" } as const;

/**
 * A cursor (eventCursors, src/domain/cursors.ts) is the position of the page's last event in the
 * list's order. It is valid only while it names one of the caller's events exactly, which the list
 * checks in the statement that reads the page, so a tampered cursor, or one of another merchant's
 * list, is BAD_REQUEST rather than a page that would tell whether that position exists elsewhere.
 */

/** The values of a page's statement. */
interface PageParams {
  merchantId: string;
  /** Only this request's events (the statement of a request's events). */
  requestId: string | null;
  /** The position the page starts after, in the list's order. */
  beforeAt: Date;
  beforeId: string;
  /** createdFrom, or -infinity. */
  from: Date | "-infinity";
  /** The cursor's position, when one is given: it must be one of the merchant's events. */
  cursorId: string | null;
  cursorAt: Date | null;
  types: readonly SubscribableEventType[];
  take: number;
}

/**
 * One page of a merchant's events, newest first by (created_at, id): those before a position in
 * that order (the cursor's, or createdTo's), and whether the cursor's position (when one is given)
 * is one of the merchant's events. The position is a row comparison that the index
 * (merchant_id, created_at DESC, id DESC) starts its scan at, with plain parameters so that the
 * prepared statement's generic plan is that ordered scan, stopping at the page's end; a request's
 * events are read by the request's index instead (a request has a few). Events written while a
 * client pages are newer than its first page, so later pages neither repeat nor skip any. A page
 * reads one more event than it answers, to tell whether another page follows.
 */
const pageStatement = (ofRequest: boolean) =>
  compiled<PageParams, { known: boolean; events: unknown }>((qb, param) =>
    qb
      .with("start", (db) =>
        db.selectNoFrom((eb) =>
          eb
            .or([
              eb(sql`${param("cursorId")}::uuid`, "is", null),
              eb.exists(
                eb
                  .selectFrom("event as c")
                  .select(sql`1`.as("one"))
                  .where("c.id", "=", sql<string>`${param("cursorId")}::uuid`)
                  .where("c.merchantId", "=", sql<string>`${param("merchantId")}::uuid`)
                  .where("c.createdAt", "=", sql<Date>`${param("cursorAt")}::timestamp(3)`),
              ),
            ])
            .as("known"),
        ),
      )
      .selectFrom("start as s")
      .select((eb) => [
        "s.known",
        eb
          .selectFrom(
            eb
              .selectFrom("event as e")
              .selectAll("e")
              .where((eb) => eb.ref("s.known"))
              .where("e.merchantId", "=", sql<string>`${param("merchantId")}::uuid`)
              .$if(ofRequest, (query) => query.where("e.requestId", "=", sql<string>`${param("requestId")}::uuid`))
              .where((eb) =>
                eb(
                  eb.refTuple("e.createdAt", "e.id"),
                  "<",
                  eb.tuple(sql<Date>`${param("beforeAt")}::timestamp(3)`, sql<string>`${param("beforeId")}::uuid`),
                ),
              )
              .where("e.createdAt", ">=", sql<Date>`${param("from")}::timestamp(3)`)
              .where("e.type", "=", (eb) => eb.fn.any(sql<SubscribableEventType[]>`${param("types")}::"EventType"[]`))
              .orderBy("e.createdAt", "desc")
              .orderBy("e.id", "desc")
              .limit(param("take"))
              .as("e"),
          )
          .select(sql`coalesce(json_agg(${rowJson("event", "e")} ORDER BY e.created_at DESC, e.id DESC), '[]')`.as("events"))
          .as("events"),
      ]),
  );
const LIST_EVENTS = pageStatement(false);
const LIST_REQUEST_EVENTS = pageStatement(true);

/** Positions in the list's order: before every event, and before every event of an instant. */
const LAST_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
const FIRST_ID = "00000000-0000-0000-0000-000000000000";

/** The earlier of two positions (createdAt, id). */
const earlier = (a: EventPosition, b: EventPosition) =>
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
  const position = given.after === undefined ? null : eventCursors.decode(given.after);
  const types: readonly SubscribableEventType[] = given.types?.length ? [...new Set(given.types)] : SUBSCRIBABLE_EVENT_TYPES;
  // createdTo is exclusive: before it is before (createdTo, the least id) in the list's order.
  let before = position ?? { createdAt: new Date(LAST_INSTANT), id: LAST_ID };
  if (given.createdTo) before = earlier(before, { createdAt: given.createdTo, id: FIRST_ID });
  const { database } = await dashboardDatabase(ctx);
  const params: PageParams = {
    merchantId,
    requestId: given.requestId ?? null,
    beforeAt: before.createdAt,
    beforeId: before.id,
    from: given.createdFrom ?? "-infinity",
    cursorId: position?.id ?? null,
    cursorAt: position?.createdAt ?? null,
    types,
    take: limit + 1,
  };
  const [row] = await (given.requestId ? LIST_REQUEST_EVENTS : LIST_EVENTS)(database, params);
  if (!row!.known) throw eventCursors.notThisList();
  const events = fromRowsJson("event", row!.events);
  const rows = events.slice(0, limit);
  const last = rows.at(-1);
  return { events: rows, nextCursor: events.length > limit && last ? eventCursors.encode(last) : null };
}
