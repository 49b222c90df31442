import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Delivery as DeliveryTable } from "../../generated/kysely/database.js";
import type { Prisma } from "../../generated/prisma/client.js";
import type { Row } from "../../sql/rows.js";

/**
 * A delivery's states, and the conditions every statement on deliveries shares, each written once
 * here. A condition names the delivery by the alias its statement gives it.
 */

/**
 * A delivery's row as the domain answers it, and as GraphQL's Prisma-backed objects (WebhookEvent,
 * WebhookDelivery) type it: its payload is jsonb, which pg parses into a JSON value and the query
 * builder's generated types call `unknown`, the one difference.
 */
export type Delivery = Omit<Row<"delivery">, "payload"> & { payload: Prisma.JsonValue };
export const asDelivery = (row: Row<"delivery">): Delivery => ({ ...row, payload: row.payload as Prisma.JsonValue });

/** A column of the delivery `alias` in a statement. */
const column = (alias: string, name: keyof DeliveryTable) => sql.ref(`${alias}.${name}`);

/**
 * The SET of a delivery held for its disabled endpoint: not sent, no job, and why. The worker holds
 * one whose endpoint is disabled when its attempt comes, or when it disables the endpoint; an
 * endpoint's update holds those waiting when the merchant disables it. A recovery sends them.
 */
export const HELD = { state: "HELD", enqueuedAt: null, lastError: "its endpoint is disabled" } as const;

/**
 * The SET of a delivery (`alias`) to be sent again at `at`: PENDING, due then and without a job.
 * One that gave up (EXHAUSTED, REFUSED, DELIVERED) is allowed exactly one attempt past those made;
 * one pending or held goes on with its schedule. What a redelivery and a recovery do.
 */
export const sendAgainAt = (alias: string, at: Date) => ({
  state: "PENDING" as const,
  nextAttemptAt: at,
  enqueuedAt: null,
  updatedAt: at,
  attemptLimit: sql<number | null>`CASE WHEN ${column(alias, "state")} IN ('PENDING', 'HELD')
    THEN ${column(alias, "attemptLimit")} ELSE ${column(alias, "attempts")} + 1 END`,
});

/**
 * The delivery `alias` is PENDING: waiting for its attempt, or in flight. A literal in the
 * statement's text, as the claim's partial indexes name it, so a prepared statement's generic plan
 * still uses them.
 */
export const pending = (alias: string): RawBuilder<SqlBool> => sql<SqlBool>`${column(alias, "state")} = 'PENDING'`;

/** The delivery `alias` is finished (DELIVERED, EXHAUSTED, REFUSED or HELD): not PENDING, a literal as `pending` is. */
export const finished = (alias: string): RawBuilder<SqlBool> => sql<SqlBool>`${column(alias, "state")} <> 'PENDING'`;

/**
 * The lease: an attempt in flight holds its delivery until `lease_until`. The delivery `alias` is
 * held by none as of `at`: it has no lease, or its lease ran out by then. Only such a delivery is
 * claimed, taken for an attempt, held, recovered, or given a turn again.
 */
export const unleased = (alias: string, at: unknown): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${column(alias, "leaseUntil")} IS NULL OR ${column(alias, "leaseUntil")} <= ${at})`;

/**
 * The kind never retried: a test event (ping), an answer to one call, tried once in a lane of its
 * own. It is never held for a disabled endpoint (it tries the endpoint before it is enabled), and
 * never recovered or redelivered. A literal, as `pending` is.
 */
export const TEST_EVENT = "PING" as const;
/** The delivery `alias` is a test event. */
export const isTestEvent = (alias: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`${column(alias, "type")} = ${sql.lit(TEST_EVENT)}`;
/** The delivery `alias` is not a test event: a notifyUrl's (no type) or an event's to an endpoint. */
export const notTestEvent = (alias: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`${column(alias, "type")} IS DISTINCT FROM ${sql.lit(TEST_EVENT)}`;

/** The delivery `alias` is not to a disabled endpoint: a notifyUrl's, or one to an endpoint that is enabled. */
export const notToDisabledEndpoint = (alias: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`NOT EXISTS (SELECT 1 FROM webhook_endpoint ep WHERE ep.id = ${column(alias, "endpointId")} AND NOT ep.enabled)`;

/**
 * How long one attempt may hold its delivery (and the worker's job lock): WEBHOOK_TIMEOUT plus time
 * to sign and record. A worker killed mid-delivery frees it when this runs out; a test event is
 * waited for as long.
 */
export const deliveryLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;
