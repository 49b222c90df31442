import { createHash } from "node:crypto";
import { sql, type Expression } from "kysely";
import type { WebhookDestination } from "../../generated/kysely/database.js";

/**
 * Destinations: where deliveries go, as the worker shares its attempts out. An endpoint is one (its
 * id is the destination's); so is each merchant's notifyUrl host, under an id made from the two, so
 * that one merchant's failing host never counts against another's deliveries to the same host.
 *
 * How many attempts a destination may have in flight follows its health (webhook_destination):
 * - quick (its latest attempts were delivered within QUICK_MS): as many as its merchant's turns give;
 * - slow (new, answering slowly, or failing): FEW, and a merchant's slow destinations together at
 *   most half of a worker's slots, so a merchant whose servers hang never holds the rest;
 * - tripped (TRIP_AFTER failures in a row): one attempt at a time, a probe, while the rest wait
 *   without spending attempts, until one is delivered again.
 */

/** Attempts in flight at a slow destination. */
export const FEW = 4;
/** Failed attempts in a row that trip a destination. */
export const TRIP_AFTER = 5;
/** A delivered attempt answered within this long keeps its destination quick. */
export const QUICK_MS = 1_000;

/** The destination of a notification to `notifyUrl`: its merchant's host there (name and port, as a URL reads it). */
export function notifyUrlDestination(merchantId: string, notifyUrl: string): string {
  const hex = createHash("md5")
    .update(`${merchantId} ${new URL(notifyUrl).host}`)
    .digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A column of the destination's health row (webhook_destination) named `alias` in a statement. */
const health = (alias: string, name: keyof WebhookDestination) => sql.ref(`${alias}.${name}`);

/**
 * A destination's room for more attempts: given its health row `alias` (none: a new destination)
 * and its attempts in flight `busy`, `free` for a quick one (what the turns give), else its cap
 * less `busy`.
 */
export const destinationRoom = (alias: string, busy: Expression<number>, free: unknown) =>
  sql<number>`CASE WHEN ${health(alias, "failures")} >= ${sql.lit(TRIP_AFTER)} THEN 1 - ${busy}
    WHEN ${health(alias, "quick")} THEN ${free} ELSE ${sql.lit(FEW)} - ${busy} END`;

/** Whether a destination (health row `alias`, or none) is slow. */
export const isSlow = (alias: string) => sql<boolean>`NOT COALESCE(${health(alias, "quick")}, false)`;
