import { primaryDatabase, type Database, type StatementParams } from "../db.js";
import type { Logger } from "../logger.js";

/** Who is calling. Keys are resolved to an actor once per call; operators use the CLI. */
export type Actor =
  { kind: "merchant"; merchantId: string; keyPrefix: string } | { kind: "payer"; keyPrefix: string } | { kind: "operator" };

export interface DomainContext {
  actor: Actor;
  /** Correlates the log lines of one call. */
  requestId: string;
  logger: Logger;
  /** The clock; tests may pin it. */
  now: () => Date;
  /**
   * What the caller's transport adds to the statement that makes the call's change, so it commits
   * with it (an idempotency key notes the entity produced: transport/idempotency.ts). The domain
   * runs it and knows nothing of what it writes.
   */
  alongWrite?: WriteHook;
  /**
   * Where the call's reads that may lag run (lists, the dashboard's reads of a request and its
   * transactions, the audit trail): a read replica when it holds every change of the caller's,
   * else the primary. The transport sets it for such calls only; unset, they read the primary.
   */
  dashboardReads?: () => Promise<Database>;
}

/** The database a read that may lag runs on for this call (see DomainContext.dashboardReads). */
export const dashboardDatabase = (ctx: DomainContext): Database | Promise<Database> =>
  ctx.dashboardReads?.() ?? primaryDatabase();

/**
 * A part of a write statement (one CTE, `name AS (...)`) given the id of the entity the change
 * produced, its parameters added to `p`. With `when`, the name of an earlier CTE, it must take effect
 * only if that CTE returned a row.
 */
export type WriteHook = (p: StatementParams, entityId: string, when?: string) => string;
