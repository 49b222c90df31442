import { z } from "zod";
import { ValidationError } from "./errors.js";
import { UUID } from "./validation.js";

/**
 * Every list's cursors, in one place: the parameter as a caller gives it, each list's wire format,
 * and the one refusal of a cursor the list did not issue. The lists are the Relay connections
 * (GraphQL's paymentRequests and transactions) and the events list (REST's events.list and
 * GraphQL's events).
 *
 * A cursor is the position of a row in its list's order, behind the list's prefix, in base64. Only
 * a cursor exactly as its list issued it is read: another list's (its prefix differs), a tampered
 * one, or another spelling of the same bytes or numbers (padding, base64's other alphabet, leading
 * zeros, upper-case hex where the list writes lower case) is BAD_REQUEST before anything reaches the
 * database. Whether the position is one of the caller's own rows is the list's question, which it
 * answers with the same refusal: an empty page would tell that the position exists elsewhere.
 */

/**
 * A list's cursor parameter (`after`, `before`) as given: text, trimmed like every text parameter,
 * so a cursor pasted with white space around it is the cursor. Whether it is one the list issued is
 * its format's question (decode).
 */
export const cursorParam = z.string({ error: "must be a cursor returned by this list" }).trim();

/** One list's cursors. */
export interface CursorFormat<P> {
  /** The cursor of a position, as the list issues it. */
  encode(position: P): string;
  /** The position a cursor of this list holds; anything else is refused with notThisList. */
  decode(cursor: string): P;
  /** BAD_REQUEST, naming the list's cursor parameters: the cursor is not a position of this list. */
  notThisList(): ValidationError;
}

interface FormatSpec<P> {
  /** What comes before the position, telling one list's cursors from another's. */
  prefix: string;
  encoding: "base64" | "base64url";
  /** The list's cursor parameters, as the refusal names them. */
  parameters: readonly ["after"] | readonly ["after", "before"];
  /** The position's text (after the prefix), whole. */
  pattern: RegExp;
  /** The position the pattern matched; undefined when it is none of the list's (out of range). */
  read: (parts: RegExpExecArray) => P | undefined;
  /** A position's text, which `pattern` reads back. */
  write: (position: P) => string;
}

function cursorFormat<P>({ prefix, encoding, parameters, pattern, read, write }: FormatSpec<P>): CursorFormat<P> {
  const message =
    parameters.length === 1
      ? `${parameters[0]} must be a cursor returned by this list.`
      : `${parameters.join(" and ")} must be cursors returned by this list.`;
  const notThisList = () => new ValidationError("BAD_REQUEST", message);
  const encode = (position: P) => Buffer.from(`${prefix}${write(position)}`, "utf8").toString(encoding);
  return {
    encode,
    decode(cursor) {
      const text = Buffer.from(cursor, encoding).toString("utf8");
      const parts = text.startsWith(prefix) ? pattern.exec(text.slice(prefix.length)) : null;
      const position = parts ? read(parts) : undefined;
      // Only the cursor exactly as issued: its position written again must give the same text.
      if (position === undefined || encode(position) !== cursor) throw notThisList();
      return position;
    },
    notThisList,
  };
}

/**
 * The Relay connections' cursors (paymentRequests, transactions): a row's id behind `GPC:S:`, in
 * base64 with padding, as Pothos's plugin-prisma writes a cursor on a string column (it issues them;
 * the lists read them back here first, before Pothos or Prisma use them).
 */
export const connectionCursors = cursorFormat<string>({
  prefix: "GPC:S:",
  encoding: "base64",
  parameters: ["after", "before"],
  pattern: UUID,
  read: ([id]) => id,
  write: (id) => id,
});

/** 9999-12-31T23:59:59.999Z, the last instant a timestamp(3) of a four-digit year holds. */
export const LAST_INSTANT = 253_402_300_799_999;

/** A position in the events list's order: newest first by createdAt, then id. */
export interface EventPosition {
  createdAt: Date;
  id: string;
}

/**
 * The events list's cursors: the position of the page's last event, `events:<createdAt in ms>:<id>`,
 * in base64url. An instant the database cannot hold is none of the list's.
 */
export const eventCursors = cursorFormat<EventPosition>({
  prefix: "events:",
  encoding: "base64url",
  parameters: ["after"],
  pattern: /^(\d{1,15}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
  read: ([, ms, id]) => (Number(ms) > LAST_INSTANT ? undefined : { createdAt: new Date(Number(ms)), id: id! }),
  write: ({ createdAt, id }) => `${createdAt.getTime()}:${id}`,
});
