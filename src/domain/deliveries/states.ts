/**
 * The SET of a delivery held for its disabled endpoint: not sent, no job, and why. The worker holds
 * one whose endpoint is disabled when its attempt comes, or when it disables the endpoint; an
 * endpoint's update holds those waiting when the merchant disables it. A recovery sends them.
 */
export const HELD = { state: "HELD", enqueuedAt: null, lastError: "its endpoint is disabled" } as const;
/** HELD, as the SET of the statements written in SQL text. */
export const HOLD = `state = '${HELD.state}', enqueued_at = NULL, last_error = '${HELD.lastError}'`;

/**
 * The SET of a delivery (`e`) to be sent again at `at`: PENDING, due then and without a job. One
 * that gave up (EXHAUSTED, REFUSED, DELIVERED) is allowed exactly one attempt past those made; one
 * pending or held goes on with its schedule. What a redelivery and a recovery do.
 */
export const sendAgainAt = (at: string) =>
  `state = 'PENDING', next_attempt_at = ${at}, enqueued_at = NULL, updated_at = ${at},
   attempt_limit = CASE WHEN e.state IN ('PENDING', 'HELD') THEN e.attempt_limit ELSE e.attempts + 1 END`;

/**
 * How long one attempt may hold its delivery (and the worker's job lock): WEBHOOK_TIMEOUT plus time
 * to sign and record. A worker killed mid-delivery frees it when this runs out; a test event is
 * waited for as long.
 */
export const deliveryLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;
