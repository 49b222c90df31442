import { sql } from "kysely";
import { database } from "../../db.js";
import type { WebhookAttemptOutcome } from "../../generated/kysely/enums.js";
import type { Row } from "../../sql/rows.js";

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

/**
 * An endpoint's health as of `now`: since when it has been failing, and its attempts' outcomes. An
 * attempt names its endpoint, indexed (endpoint_id, started_at DESC): the last day's attempts and
 * the latest finished one are each a short range of that index, read in one statement.
 */
export async function endpointHealth(
  endpoint: Pick<Row<"webhookEndpoint">, "id" | "failingSince">,
  now: Date,
): Promise<EndpointHealth> {
  const { delivered, finished, lastAttemptAt, lastOutcome } = await database
    .with("day", (db) =>
      db
        .selectFrom("webhookAttempt")
        .select([
          sql<number>`count(*) FILTER (WHERE outcome = 'DELIVERED')::int`.as("delivered"),
          sql<number>`count(*) FILTER (WHERE outcome <> 'IN_FLIGHT')::int`.as("finished"),
        ])
        .where("endpointId", "=", endpoint.id)
        .where("startedAt", ">=", new Date(now.getTime() - DAY_MS)),
    )
    .with("latest", (db) =>
      db
        .selectFrom("webhookAttempt")
        .select(["startedAt", "outcome"])
        .where("endpointId", "=", endpoint.id)
        .where("outcome", "<>", sql.lit("IN_FLIGHT"))
        .orderBy("startedAt", "desc")
        .limit(sql.lit(1)),
    )
    .selectFrom("day")
    .leftJoin("latest", (join) => join.onTrue())
    .select(["day.delivered", "day.finished", "latest.startedAt as lastAttemptAt", "latest.outcome as lastOutcome"])
    .executeTakeFirstOrThrow();
  return {
    lastAttemptAt,
    lastOutcome,
    attemptsLastDay: finished,
    successShareLastDay: finished === 0 ? null : delivered / finished,
    failingSince: endpoint.failingSince,
  };
}
