import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.js";
import type { Logger } from "./logger.js";

export { Prisma } from "./generated/prisma/client.js";

/**
 * The process's database: one pg pool, with Prisma on it through the driver adapter. The few
 * hot-path reads that measurements showed Prisma's per-query cost dominating (bench/) use the
 * pool directly. Each process's entry point opens it once with its own configuration.
 */
export let pool: pg.Pool;
export let db: PrismaClient;

export interface DatabaseSettings {
  url: string;
  /** Connections in the pool. */
  poolSize: number;
}

export function openDatabase(settings: DatabaseSettings, logger: Logger): void {
  pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize,
    // While the database is unreachable, calls fail within seconds (503) instead of hanging.
    connectionTimeoutMillis: 3_000,
    query_timeout: 15_000,
  });
  // An idle client whose connection drops must not crash the process; the pool replaces it.
  pool.on("error", (err) =>
    logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "idle database connection lost"),
  );
  db = new PrismaClient({ adapter: new PrismaPg(pool) });
}

/** Closes what openDatabase opened. */
export async function closeDatabase(): Promise<void> {
  await db.$disconnect();
  await pool.end();
}

/**
 * Columns are UTC `timestamp(3)` without a zone (Prisma's convention), so plain SQL on the pool
 * passes and reads them as zone-less UTC text.
 */
export const toUtcText = (date: Date) => date.toISOString().replace("Z", "");
export const fromUtcText = (text: string) => new Date(`${text}Z`);

export type Db = PrismaClient;

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
