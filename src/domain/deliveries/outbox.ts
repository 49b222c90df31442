import { pool } from "../../db.js";
import { bigint } from "../../sql/columns.js";
import { queryRow, queryRows, statement } from "../../sql/statements.js";
import { webhookAttempts } from "../../sql/tables.js";

/**
 * What the API knows of the webhook outbox; the worker delivers it (attempts.ts, claim.ts).
 */

/** Postgres NOTIFY channel on which new and redelivered events are announced to the worker. */
export const WEBHOOK_CHANNEL = "webhook_events";
/** The payload of a NOTIFY on it that announces test events, which the worker claims in a lane of their own. */
export const TEST_EVENT_NOTICE = "tests";

const PENDING_EVENTS = statement("SELECT count(*) FROM webhook_event WHERE state = 'PENDING'", { count: bigint() });
const ATTEMPTS_BY_OUTCOME = statement("SELECT outcome, count(*) FROM webhook_attempt GROUP BY outcome", {
  outcome: webhookAttempts.columns.outcome,
  count: bigint(),
});

/** How many events wait for delivery (for /metrics). */
export async function pendingWebhookEvents(): Promise<number> {
  return Number((await queryRow(pool, PENDING_EVENTS, []))!.count);
}

/** Attempts recorded so far, by outcome (for /metrics). */
export async function webhookAttemptsByOutcome(): Promise<{ outcome: string; count: number }[]> {
  const rows = await queryRows(pool, ATTEMPTS_BY_OUTCOME, []);
  return rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
}
