import { ValidationError } from "../domain/errors.js";
import { UUID } from "../domain/validation.js";

/** What a list cursor holds before base64: Pothos's prefix for a cursor on a string column, then the row's id. */
const CURSOR_PREFIX = "GPC:S:";

/**
 * The row id a list cursor (`after`, `before`) points at. Only a cursor exactly as a list issued it
 * is read: anything else is refused as BAD_REQUEST before it can reach the database. Whether the
 * row is one of the list's own is the list's question (domain/requests/list.ts).
 */
export function decodeListCursor(cursor: string): string {
  const text = Buffer.from(cursor, "base64").toString("utf8");
  const id = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  if (Buffer.from(text, "utf8").toString("base64") !== cursor || !UUID.test(id)) {
    throw new ValidationError("BAD_REQUEST", "after and before must be cursors returned by this list.");
  }
  return id;
}
