import { pool, toUtcText as utc } from "../../db.js";
import type { WebhookAttemptOutcome, WebhookEndpoint } from "../../generated/prisma/client.js";
import { int } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";

const DAY_MS = 86_400_000;

/** How an endpoint is doing, as its merchant sees it. */
export interface EndpointHealth {
  lastAttemptAt: Date | null;
  lastOutcome: WebhookAttemptOutcome | null;
  /** Attempts finished in the last 24 hours. */
  attemptsLastDay: number;
  /** The share of those that were delivered (0 to 1); null when there were none. */
  successShareLastDay: number | null;
  /** Since when every attempt has failed; null while the latest attempt was delivered (or none was made). */
  failingSince: Date | null;
}

// A delivery with an attempt in the last day changed then (an attempt's end updates it), so the
// endpoint's deliveries are read by (endpoint_id, updated_at) and only theirs.
const ATTEMPTS_SINCE = statement(
  `SELECT count(*) FILTER (WHERE a.outcome = 'DELIVERED')::int AS delivered,
          count(*) FILTER (WHERE a.outcome <> 'IN_FLIGHT')::int AS finished
   FROM webhook_event e JOIN webhook_attempt a ON a.event_id = e.id
   WHERE e.endpoint_id = $1 AND e.updated_at >= $2::timestamp(3) AND a.started_at >= $2::timestamp(3)`,
  { delivered: int(), finished: int() },
);

/** An endpoint's health as of `now`: what the worker recorded of its attempts, and its last day's. */
export async function endpointHealth(endpoint: WebhookEndpoint, now: Date): Promise<EndpointHealth> {
  const { delivered, finished } = (await queryRow(pool, ATTEMPTS_SINCE, [endpoint.id, utc(new Date(now.getTime() - DAY_MS))]))!;
  return {
    lastAttemptAt: endpoint.lastAttemptAt,
    lastOutcome: endpoint.lastOutcome,
    attemptsLastDay: finished,
    successShareLastDay: finished === 0 ? null : delivered / finished,
    failingSince: endpoint.failingSince,
  };
}
