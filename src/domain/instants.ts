import { z } from "zod";

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (midnight UTC) or date and time with its offset, as an instant; null for any
 * other text, and for a date that is not in the calendar (`2026-02-30`, `T24:00`), which Date would
 * roll over into the next day or month. Years 1 to 9999: what ISO 8601 writes without an expanded
 * year, and what the database stores. GraphQL's DateTime and REST's timestamp parameters read alike.
 */
export function isoInstant(text: string): Date | null {
  const parts = ISO_8601.exec(text);
  if (!parts) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts.slice(1, 7).map((part) => Number(part ?? 0));
  const offset = parts[7];
  if (year! < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (offset && offset !== "Z" && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) return null;
  const calendar = new Date(Date.UTC(year!, month! - 1, day));
  calendar.setUTCFullYear(year!);
  if (calendar.getUTCMonth() !== month! - 1 || calendar.getUTCDate() !== day!) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999 ? null : date;
}

/** Text that names an instant (isoInstant), trimmed, as a Date. */
export const instantText = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const date = isoInstant(text);
    if (date) return date;
    ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date or date and time, in the years 1 to 9999" });
    return z.NEVER;
  });
