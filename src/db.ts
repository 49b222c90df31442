import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.js";
import { config } from "./config.js";
import { logger } from "./logger.js";

export { Prisma } from "./generated/prisma/client.js";

/**
 * One pg pool for the process. Prisma runs on it through the driver adapter; the few hot-path
 * reads that measurements showed Prisma's per-query cost dominating (bench/) use it directly.
 */
export const pool = new pg.Pool({
  connectionString: config.db.url,
  max: 20,
  // While the database is unreachable, calls fail within seconds (503) instead of hanging.
  connectionTimeoutMillis: 3_000,
  query_timeout: 15_000,
});
// An idle client whose connection drops must not crash the process; the pool replaces it.
pool.on("error", (err) =>
  logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "idle database connection lost"),
);

/**
 * Columns are UTC `timestamp(3)` without a zone (Prisma's convention), so plain SQL on the pool
 * passes and reads them as zone-less UTC text.
 */
export const toUtcText = (date: Date) => date.toISOString().replace("Z", "");
export const fromUtcText = (text: string) => new Date(`${text}Z`);

/** The process's single Prisma client (see shared/notes/prisma-offline.md). */
export const db = new PrismaClient({ adapter: new PrismaPg(pool) });

export type Db = typeof db;

/** A client bound to an interactive transaction, as handed to `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
  "P1001",
  "P1002",
  "P1017",
  "P2024",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Connection refused|Can't reach database|server closed the connection/i;

/** Whether an error means the database could not be reached (as opposed to a bug or a refused statement). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}
