import { createHash } from "node:crypto";
import { z } from "zod";
import { pool, prepared, toUtcText as utc } from "../db.js";
import type { Actor, WriteHook } from "../domain/context.js";
import { StateConflictError, ValidationError } from "../domain/errors.js";
import { checkInput } from "../domain/validation.js";

const RETENTION_MS = 24 * 3_600_000;

/**
 * How long a claim whose write never committed (no entity noted) blocks retries: longer than any
 * call runs (statements time out after 15 s), short enough that a crash does not hold a key for a day.
 */
const CLAIM_LEASE_MS = 60_000;

const idempotencyKey = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces");

/**
 * A stable hash of an operation and its input as the operation reads it (`input` parsed by its
 * domain schema), so calls that mean the same are one call: `amount=300` and `"amount": 300`, an
 * empty optional parameter and none. An input the schema refuses is hashed as given, apart from
 * every parsed one, so its retry is refused the same way and never replays a success.
 */
export function fingerprintOf(operation: string, schema: z.ZodObject, input: unknown): string {
  const checked = checkInput(schema, input);
  const read = checked.success ? { parsed: checked.data } : { refused: input };
  const canonical = JSON.stringify(read, (_key, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as object).sort(([a], [b]) => a.localeCompare(b)))
      : typeof value === "bigint"
        ? value.toString()
        : value,
  );
  return createHash("sha256").update(`${operation}\n${canonical}`).digest("hex");
}

/**
 * Runs a write at most once per (API key, idempotency key) for 24 hours and returns its first
 * outcome to every retry, errors included. The claim is a single INSERT (an expired claim is taken
 * over in the same statement), so two concurrent calls cannot both run: the second is told
 * IDEMPOTENCY_KEY_IN_USE, and the same key with other parameters IDEMPOTENCY_KEY_REUSED.
 * `run` returns the outcome to store; if it throws, the claim is released so a retry can run. It is
 * handed the part its write statement adds to note the entity it produced on the claim.
 * Both transports use it: REST keeps the response (http/rest/idempotency.ts), GraphQL the
 * mutation's entity or typed error (graphql/idempotent.ts).
 */
export async function withIdempotency<O>(
  actor: Actor,
  key: string,
  fingerprint: string,
  run: (alongWrite: WriteHook) => Promise<O>,
  rebuild: (entityId: string) => Promise<O>,
): Promise<{ outcome: O; replayed: boolean }> {
  const parsed = idempotencyKey.safeParse(key);
  if (!parsed.success)
    throw new ValidationError(
      "BAD_REQUEST",
      `Idempotency-Key must be 1 to 255 characters of ${parsed.error.issues[0]!.message}.`,
    );
  const scope = actor.kind === "operator" ? "operator" : actor.keyPrefix;
  const now = new Date();

  const claimed = await pool.query(
    prepared(
      `INSERT INTO idempotency_key (api_key_prefix, key, fingerprint, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (api_key_prefix, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, outcome = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE idempotency_key.expires_at < EXCLUDED.created_at
     RETURNING 1`,
      [scope, parsed.data, fingerprint, utc(now), utc(new Date(now.getTime() + RETENTION_MS))],
    ),
  );
  if (!claimed.rowCount) {
    const { rows } = await pool.query<{ fingerprint: string; outcome: O | null; entityId: string | null }>(
      prepared(
        `SELECT fingerprint, outcome, entity_id AS "entityId" FROM idempotency_key WHERE api_key_prefix = $1 AND key = $2`,
        [scope, parsed.data],
      ),
    );
    const first = rows[0];
    if (first && first.fingerprint !== fingerprint) {
      throw new StateConflictError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with different parameters.");
    }
    if (first?.outcome != null) return { outcome: first.outcome, replayed: true };
    // The write committed (it noted its entity) but its outcome was not stored: the process stopped
    // in between. The first outcome is rebuilt from the entity as it is now.
    if (first?.entityId) return { outcome: await rebuild(first.entityId), replayed: true };
    // Nothing committed: a claim older than its lease was left by a call that died; take it over.
    const takenOver = await pool.query(
      prepared(
        `UPDATE idempotency_key SET created_at = $3 WHERE api_key_prefix = $1 AND key = $2
       AND outcome IS NULL AND entity_id IS NULL AND created_at < $4 RETURNING 1`,
        [scope, parsed.data, utc(now), utc(new Date(now.getTime() - CLAIM_LEASE_MS))],
      ),
    );
    if (!takenOver.rowCount) {
      throw new StateConflictError("IDEMPOTENCY_KEY_IN_USE", "A call with this Idempotency-Key is still running.");
    }
  }

  let outcome: O;
  try {
    outcome = await run(notingEntity(scope, parsed.data));
  } catch (error) {
    await pool.query(prepared("DELETE FROM idempotency_key WHERE api_key_prefix = $1 AND key = $2", [scope, parsed.data]));
    throw error;
  }
  await pool.query(
    prepared("UPDATE idempotency_key SET outcome = $3 WHERE api_key_prefix = $1 AND key = $2", [
      scope,
      parsed.data,
      JSON.stringify(outcome),
    ]),
  );
  return { outcome, replayed: false };
}

/**
 * Notes, on a claim, the entity its write produced, in the write's own statement: a retry after a
 * crash between the commit and the stored outcome finds the entity (see withIdempotency).
 */
const notingEntity =
  (scope: string, key: string): WriteHook =>
  (p, entityId, when) =>
    `claim AS (UPDATE idempotency_key SET entity_id = ${p.add(entityId)}::uuid
               WHERE api_key_prefix = ${p.add(scope)} AND key = ${p.add(key)}${when ? ` AND EXISTS (SELECT 1 FROM ${when})` : ""})`;
