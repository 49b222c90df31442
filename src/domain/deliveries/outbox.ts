import { sql } from "kysely";
import { database } from "../../db.js";
import { pending } from "./states.js";

/**
 * What the API knows of the webhook outbox; the worker delivers it (attempts.ts, claim.ts).
 */

/**
 * Postgres NOTIFY channel on which new and redelivered events are announced to the worker. The API
 * and the workers of any version share it: it kept its name when the table was renamed delivery.
 */
export const WEBHOOK_CHANNEL = "webhook_events";
/** The payload of a NOTIFY on it that announces test events, which the worker claims in a lane of their own. */
export const TEST_EVENT_NOTICE = "tests";

/** How many events wait for delivery (for /metrics). */
export async function pendingDeliveries(): Promise<number> {
  const { count } = await database
    .selectFrom("delivery as e")
    .select(sql<bigint>`count(*)`.as("count"))
    .where(pending("e"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Attempts recorded so far, by outcome (for /metrics). */
export async function webhookAttemptsByOutcome(): Promise<{ outcome: string; count: number }[]> {
  const rows = await database
    .selectFrom("webhookAttempt")
    .select(["outcome", sql<bigint>`count(*)`.as("count")])
    .groupBy("outcome")
    .execute();
  return rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
}
