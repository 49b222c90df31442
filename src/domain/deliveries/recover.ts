import { z } from "zod";
import { inTransaction, pool, StatementParams, toUtcText as utc, type Sql } from "../../db.js";
import { boolean, int } from "../../sql/columns.js";
import { queryRow, rowShape, statement } from "../../sql/statements.js";
import { webhookEndpoints } from "../../sql/tables.js";
import { notFound } from "../auth.js";
import type { DomainContext } from "../context.js";
import { RateLimitedError, StateConflictError } from "../errors.js";
import { outboxNotified } from "../events/record.js";
import { instantText } from "../instants.js";
import { id, parseInput } from "../validation.js";
import { sendAgainAt } from "./states.js";
import { endpointOwner } from "../webhooks/endpoint-owner.js";

/** One recovery per endpoint in this long: each may queue thousands of deliveries. */
const RECOVERY_INTERVAL_MS = 60_000;

export const recoverInput = z.object({ endpointId: id, since: z.union([z.date(), instantText]) });
export type RecoverInput = z.input<typeof recoverInput>;

export interface Recovery {
  endpointId: string;
  /** How many deliveries were queued to be sent again. */
  queued: number;
}

const LOCK_ENDPOINT = statement(
  `SELECT ep.enabled, ep.recovered_at AS "recoveredAt" FROM webhook_endpoint ep
   WHERE ep.id = $1 AND ($2::uuid IS NULL OR ep.merchant_id = $2) FOR NO KEY UPDATE`,
  { enabled: boolean(), recoveredAt: webhookEndpoints.columns.recoveredAt },
);

/**
 * The endpoint's deliveries since a time ($2) that were not delivered, due now: those that gave up
 * (EXHAUSTED, REFUSED) get exactly one more attempt, as a redelivery does; those held while the
 * endpoint was disabled (HELD) go on with the attempts their schedule had left; those still retrying
 * (PENDING after a failed attempt, not in flight) are brought forward and keep their schedule. Test
 * events are not recovered. Announced to the worker on commit.
 *
 * "Since" is when the event was made or when its first attempt there started: an endpoint's
 * `failingSince` is its first failed attempt, a few milliseconds after the event that attempt
 * carried was made, so recovering since it must still include that event. The attempts are found
 * by the index (endpoint_id, started_at DESC).
 */
const RECOVER_DELIVERIES = statement(
  `WITH recovered AS (
     UPDATE webhook_event e SET ${sendAgainAt("$3::timestamp(3)")}
     WHERE e.endpoint_id = $1 AND e.type <> 'PING'
       AND (e.created_at >= $2::timestamp(3)
            OR e.id IN (SELECT a.event_id FROM webhook_attempt a
                        WHERE a.endpoint_id = $1 AND a.started_at >= $2::timestamp(3) AND a.number = 1))
       AND (e.state IN ('EXHAUSTED', 'REFUSED', 'HELD')
            OR (e.state = 'PENDING' AND e.attempts > 0 AND (e.lease_until IS NULL OR e.lease_until <= $3::timestamp(3))))
     RETURNING e.id)
   SELECT count(*)::int AS queued, ${outboxNotified("recovered")} > 0 AS announced FROM recovered`,
  { queued: int(), announced: boolean() },
);

/**
 * Sends again every delivery of one endpoint since `since` that was not delivered (of an event made
 * then or later, or first attempted then or later), as one call that answers how many it queued.
 * The endpoint must be enabled (a disabled one would hold them again). One recovery that queues
 * something per endpoint a minute (RATE_LIMIT_EXCEEDED, with when to retry): one that queues
 * nothing costs the service nothing, so it leaves the minute's recovery unused. Recoveries of one
 * endpoint take its row lock in turn, so of several at once only the first that queues anything
 * runs. With an idempotency key, a retry answers the first call's count and queues nothing more.
 */
export async function recoverWebhookDeliveries(ctx: DomainContext, input: RecoverInput): Promise<Recovery> {
  const { endpointId, since } = parseInput(recoverInput, { endpointId: "BAD_REQUEST", since: "BAD_REQUEST" }, input);
  const scope = endpointOwner(ctx);
  const now = ctx.now();
  const queued = await inTransaction(async (sql) => {
    const endpoint = await queryRow(sql, LOCK_ENDPOINT, [endpointId, scope.merchantId ?? null]);
    if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
    if (!endpoint.enabled)
      throw new StateConflictError(
        "WEBHOOK_ENDPOINT_DISABLED",
        "The endpoint is disabled: enable it, then recover its deliveries.",
      );
    const waitMs = endpoint.recoveredAt ? endpoint.recoveredAt.getTime() + RECOVERY_INTERVAL_MS - now.getTime() : 0;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RateLimitedError(seconds, `One recovery per endpoint a minute; retry in ${seconds} s.`);
    }
    const { queued } = (await queryRow(sql, RECOVER_DELIVERIES, [endpointId, utc(since), utc(now)]))!;
    await noteRecovery(sql, ctx, endpointId, now, queued);
    return queued;
  });
  ctx.logger.info({ endpointId, since, queued }, "webhook deliveries recovered");
  return { endpointId, queued };
}

/**
 * Records the recovery on its endpoint (and, with an idempotency key, on the key, in the same
 * transaction): its count always (what a retry after a crash answers), its time only when it queued
 * something, since that time is what the rate limit counts from.
 */
async function noteRecovery(sql: Sql, ctx: DomainContext, endpointId: string, now: Date, queued: number) {
  const p = new StatementParams();
  const record = ctx.writeIdempotencyRecord?.(p, endpointId);
  const recoveredAt = queued > 0 ? `${p.add(utc(now))}::timestamp(3)` : "recovered_at";
  const text = `${record ? `WITH ${record} ` : ""}UPDATE webhook_endpoint SET recovered_at = ${recoveredAt},
    recovered_count = ${p.add(queued)}::int WHERE id = ${p.add(endpointId)}::uuid RETURNING true AS noted`;
  await queryRow(sql, { text, shape: notedRow }, p.values);
}

const notedRow = rowShape({ noted: boolean() });

/** A recovery as its endpoint last recorded it: what an idempotent retry answers after a crash. */
export async function lastRecovery(ctx: DomainContext, endpointId: string): Promise<Recovery> {
  const scope = endpointOwner(ctx);
  const endpoint = await queryRow(pool, RECOVERED_COUNT, [endpointId, scope.merchantId ?? null]);
  if (!endpoint) throw notFound("WEBHOOK_ENDPOINT_NOT_FOUND");
  return { endpointId, queued: endpoint.queued };
}

const RECOVERED_COUNT = statement(
  `SELECT COALESCE(ep.recovered_count, 0) AS queued FROM webhook_endpoint ep
   WHERE ep.id = $1 AND ($2::uuid IS NULL OR ep.merchant_id = $2)`,
  { queued: int() },
);
