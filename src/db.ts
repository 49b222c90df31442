import pg from "pg";
import type { Logger } from "./logger.js";
import { namePreparedStatements } from "./sql/prepared.js";
import { queryBuilder, type QueryBuilder } from "./sql/query-builder.js";

/**
 * The process's database: one pg pool, with the typed query builder on it (`database`,
 * src/sql/query-builder.ts), which every statement of the domain, the transports, the CLI and the
 * worker is written with. GraphQL's reads go through Prisma on the same pool (src/graphql/prisma.ts).
 * Each process's entry point opens it once with its own configuration.
 */
export let pool: pg.Pool;
/** The typed query builder (src/sql/query-builder.ts) on the same pool. */
export let database: QueryBuilder;

/** A database server as the process reads it: the query builder, and the pool under it. */
export interface Database {
  database: QueryBuilder;
  pool: pg.Pool;
}

/** The primary (DATABASE_URL): every write, and every read that must see the latest state. */
export const primaryDatabase = (): Database => ({ database, pool });

/**
 * The replica of DATABASE_READ_URL, when one is set: only reads that may lag run on it (lists, the
 * GraphQL dashboard queries, the audit trail), and only when it holds the caller's own writes
 * (transport/read-your-writes.ts). Undefined: every read goes to the primary.
 */
export let replica: Database | undefined;

export interface DatabaseSettings {
  url: string;
  /** Connections in the pool. */
  poolSize: number;
  /** A replica for reads that may lag (DATABASE_READ_URL), with a pool of poolSize too. */
  readUrl?: string | undefined;
  /** false: `prepared` names no statements, as a transaction-mode pooler needs (DATABASE_PREPARED_STATEMENTS). Default true. */
  preparedStatements?: boolean;
  /** What the connections are called in pg_stat_activity (`payreq-api`, `payreq-worker`), so an operator sees who holds them. */
  applicationName?: string;
  /** How long a call waits for a connection (a new one's handshake, or a free one of the pool); default 3 s. */
  connectTimeoutMs?: number;
}

export function openDatabase(settings: DatabaseSettings, logger: Logger): void {
  namePreparedStatements(settings.preparedStatements ?? true);
  ({ pool, database } = connect(settings.url, settings, logger));
  replica = settings.readUrl === undefined ? undefined : connect(settings.readUrl, settings, logger);
}

function connect(
  url: string,
  { poolSize, applicationName, connectTimeoutMs = 3_000 }: DatabaseSettings,
  logger: Logger,
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    application_name: applicationName,
    // While the database is unreachable, calls fail within seconds (503) instead of hanging.
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: 15_000,
  });
  // An idle client whose connection drops must not crash the process; the pool replaces it.
  pool.on("error", (err) =>
    logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "idle database connection lost"),
  );
  return { pool, database: queryBuilder(pool) };
}

/** Closes what openDatabase opened. */
export async function closeDatabase(): Promise<void> {
  for (const { pool } of replica ? [primaryDatabase(), replica] : [primaryDatabase()]) await pool.end();
}

export { fromUtcText, toUtcText } from "./sql/query-builder.js";
export { prepared } from "./sql/prepared.js";
