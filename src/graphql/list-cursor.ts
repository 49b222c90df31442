import { z } from "zod";
import type { ListPage } from "../domain/requests/list.js";
import { ValidationError } from "../domain/errors.js";
import { cursor, optional, parseInput, UUID } from "../domain/validation.js";

/** What a list cursor holds before base64: Pothos's prefix for a cursor on a string column, then the row's id. */
const CURSOR_PREFIX = "GPC:S:";

/**
 * The row id a list cursor (`after`, `before`) points at. Only a cursor exactly as a list issued it
 * is read: anything else is refused as BAD_REQUEST before it can reach the database. Whether the
 * row is one of the list's own is the list's question (domain/requests/list.ts).
 */
const notThisList = () => new ValidationError("BAD_REQUEST", "after and before must be cursors returned by this list.");

export function decodeListCursor(given: string): string {
  const text = Buffer.from(given, "base64").toString("utf8");
  const id = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  if (Buffer.from(text, "utf8").toString("base64") !== given || !UUID.test(id)) {
    throw notThisList();
  }
  return id;
}

const pageCursors = z.object({ after: optional(cursor), before: optional(cursor) });

/** A page's cursors as the domain reads every text parameter: trimmed, and not given when empty once trimmed. */
export function givenCursors(args: Record<string, unknown>) {
  return parseInput(pageCursors, {}, { after: args.after, before: args.before });
}

/**
 * The page a Pothos connection asks for (`take`, and a cursor on the id column it then asks to
 * skip), as the domain's lists read a page.
 */
export function listPage(query: { take?: number; cursor?: { id?: string } }): ListPage {
  if (!query.cursor) return { take: query.take };
  if (!query.cursor.id) throw notThisList();
  return { take: query.take, cursorId: query.cursor.id };
}
