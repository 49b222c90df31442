import { primaryDatabase, type Database } from "../db.js";
import type { Logger } from "../logger.js";
import type { IdempotencyClaim } from "./idempotency-keys.js";

/** Who is calling. Keys are resolved to an actor once per call; operators use the CLI. */
export type Actor =
  | {
      kind: "merchant";
      merchantId: string;
      keyPrefix: string;
      /** Set when the call comes from a merchant console session (domain/console/sessions.ts) rather than a key. */
      session?: { id: string; readOnly: boolean; rateLimitPerMinute: number | null };
    }
  | { kind: "payer"; keyPrefix: string }
  | { kind: "operator" };

export interface DomainContext {
  actor: Actor;
  /** Correlates the log lines of one call. */
  requestId: string;
  logger: Logger;
  /** The clock; tests may pin it. */
  now: () => Date;
  /**
   * Set when the call carries an idempotency key: the claim its write statement records the
   * entity it produced on (domain/idempotency-record.ts), so the record commits with the change.
   */
  idempotencyClaim?: IdempotencyClaim;
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
