import { pool } from "../../db.js";

/**
 * What the API knows of the webhook outbox; the worker delivers it (worker/outbox.ts).
 */

/** Postgres NOTIFY channel on which new and redelivered events are announced to the worker. */
export const WEBHOOK_CHANNEL = "webhook_events";

/** How many events wait for delivery (for /metrics). */
export async function pendingWebhookEvents(): Promise<number> {
  const { rows } = await pool.query<{ count: string }>("SELECT count(*) FROM webhook_event WHERE state = 'PENDING'");
  return Number(rows[0]!.count);
}

/** Attempts recorded so far, by outcome (for /metrics). */
export async function webhookAttemptsByOutcome(): Promise<{ outcome: string; count: number }[]> {
  const { rows } = await pool.query<{ outcome: string; count: string }>(
    "SELECT outcome, count(*) FROM webhook_attempt GROUP BY outcome",
  );
  return rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
}
