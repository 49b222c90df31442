import { pool, toUtcText as utc } from "../../db.js";
import type { WebhookAttemptOutcome, WebhookEndpoint } from "../../generated/prisma/client.js";
import { int, nullable } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { webhookAttempts } from "../../sql/tables.js";

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

// An attempt names its endpoint, indexed (endpoint_id, started_at DESC): the last day's attempts and
// the latest finished one are each a short range of that index.
const ATTEMPTS = statement(
  `WITH day AS (
     SELECT count(*) FILTER (WHERE outcome = 'DELIVERED')::int AS delivered,
            count(*) FILTER (WHERE outcome <> 'IN_FLIGHT')::int AS finished
     FROM webhook_attempt WHERE endpoint_id = $1 AND started_at >= $2::timestamp(3)),
   latest AS (
     SELECT started_at, outcome FROM webhook_attempt
     WHERE endpoint_id = $1 AND outcome <> 'IN_FLIGHT' ORDER BY started_at DESC LIMIT 1)
   SELECT day.delivered, day.finished, latest.started_at AS "lastAttemptAt", latest.outcome AS "lastOutcome"
   FROM day LEFT JOIN latest ON true`,
  {
    delivered: int(),
    finished: int(),
    lastAttemptAt: nullable(webhookAttempts.columns.startedAt),
    lastOutcome: nullable(webhookAttempts.columns.outcome),
  },
);

/** An endpoint's health as of `now`: since when it has been failing, and its attempts' outcomes. */
export async function endpointHealth(endpoint: WebhookEndpoint, now: Date): Promise<EndpointHealth> {
  const day = utc(new Date(now.getTime() - DAY_MS));
  const { delivered, finished, lastAttemptAt, lastOutcome } = (await queryRow(pool, ATTEMPTS, [endpoint.id, day]))!;
  return {
    lastAttemptAt,
    lastOutcome,
    attemptsLastDay: finished,
    successShareLastDay: finished === 0 ? null : delivered / finished,
    failingSince: endpoint.failingSince,
  };
}
