/**
 * The idempotency rule, the one REST (http/rest/idempotency.ts), GraphQL (graphql/idempotent.ts)
 * and the pay page (http/pay/payment.ts) follow; docs/api.md states it for callers.
 *
 * A write sent with a key runs at most once per (API key, idempotency key) for 24 hours:
 * - its success, and its typed refusal (the refusals of kept-refusals.ts: the input, the state or
 *   the ledger said no), are kept, and a retry with the same input is answered with them;
 * - anything else (an outage, a rate limit, a refused key, an unexpected error) is not kept: the
 *   claim is released, so a retry runs the write again. If the write had committed (its entity is
 *   recorded on the claim), the claim stays and a retry is answered with that entity;
 * - a retry while the first call runs is IDEMPOTENCY_KEY_IN_USE; after a crash, a retry is answered
 *   with the write's entity as it is now if the write committed, else it takes the claim over once
 *   the claim's lease is over (until then, IDEMPOTENCY_KEY_IN_USE);
 * - the same key with an input the operation reads differently is IDEMPOTENCY_KEY_REUSED.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Actor } from "../domain/context.js";
import {
  claimIdempotencyKey,
  earlierClaim,
  keepIdempotentAnswer,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
  type IdempotencyClaim,
} from "../domain/idempotency-keys.js";
import { DomainError, StateConflictError, ValidationError } from "../domain/errors.js";
import { checkInput } from "../domain/validation.js";
import { isKeptRefusal, isStoredRefusal, rebuiltRefusal, type KeptRefusal } from "./kept-refusals.js";

const RETENTION_MS = 24 * 3_600_000;

/**
 * How long a claim whose write never committed (no entity recorded) blocks retries: longer than any
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
function fingerprintOf(operation: string, schema: z.ZodObject, input: unknown): string {
  const checked = checkInput(schema, input);
  const read = checked.success ? { parsed: checked.data } : { refused: input };
  const canonical = JSON.stringify(read, (_key, value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : typeof value === "bigint"
        ? value.toString()
        : value,
  );
  return createHash("sha256").update(`${operation}\n${canonical}`).digest("hex");
}

/** One write made with an idempotency key, as a transport hands it over. */
export interface IdempotentWrite<Result, Kept> {
  actor: Actor;
  /** The key as the caller sent it. */
  key: string;
  /** The operation, and its domain input schema and input: a retry is the same call when they read the same. */
  operation: string;
  schema: z.ZodObject;
  input: unknown;
  /** Runs the write; its statement records its entity on the claim (DomainContext.idempotencyClaim). */
  run: (claim: IdempotencyClaim) => Promise<Result>;
  /** What of a success a retry is answered with (stored as JSON). */
  keep: (result: Result) => Kept | Promise<Kept>;
  /** The kept answer rebuilt from the write's entity as it is now, when the process stopped before keeping it. */
  rebuild: (entityId: string) => Promise<Kept>;
}

/**
 * How the write was answered. `replayed`: from what an earlier call kept, without running. A
 * refusal is a typed DomainError: the write's own, or the key's (malformed, in use, reused).
 */
export type IdempotentAnswer<Result, Kept> =
  | { ok: true; replayed: false; result: Result }
  | { ok: true; replayed: true; kept: Kept }
  | { ok: false; replayed: boolean; refusal: DomainError };

/** What a claim keeps once its call has answered. */
type Kept<K> = { success: K } | { refusal: KeptRefusal };

type Claim = IdempotencyClaim;

/**
 * Runs `write` under the rule above. Throws only what is not kept (the write's outage or bug, after
 * releasing the claim) and what the store itself meets (the database unavailable).
 */
export async function runIdempotently<Result, K>(write: IdempotentWrite<Result, K>): Promise<IdempotentAnswer<Result, K>> {
  const parsed = idempotencyKey.safeParse(write.key);
  if (!parsed.success) {
    const message = `Idempotency-Key must be 1 to 255 characters of ${parsed.error.issues[0]!.message}.`;
    return { ok: false, replayed: false, refusal: new ValidationError("BAD_REQUEST", message) };
  }
  const claim = { scope: write.actor.kind === "operator" ? "operator" : write.actor.keyPrefix, key: parsed.data };
  const fingerprint = fingerprintOf(write.operation, write.schema, write.input);
  const earlier = await claimOrFind<K>(claim, fingerprint);
  if (earlier) return answerFrom<Result, K>(earlier, write.rebuild);

  let result: Result;
  try {
    result = await write.run(claim);
  } catch (error) {
    if (!isKeptRefusal(error)) {
      await releaseIdempotencyKey(claim);
      throw error;
    }
    await keepIdempotentAnswer(claim, { refusal: { code: error.code, message: error.message } } satisfies Kept<K>);
    return { ok: false, replayed: false, refusal: error };
  }
  await keepIdempotentAnswer(claim, { success: await write.keep(result) } satisfies Kept<K>);
  return { ok: true, replayed: false, result };
}

/** What an earlier call with the key left, when the key is not free for this call to run. */
type Earlier<K> = { kept: Kept<K> } | { committed: string } | { refusal: StateConflictError };

async function answerFrom<Result, K>(
  earlier: Earlier<K>,
  rebuild: (entityId: string) => Promise<K>,
): Promise<IdempotentAnswer<Result, K>> {
  if ("refusal" in earlier) return { ok: false, replayed: false, refusal: earlier.refusal };
  if ("committed" in earlier) return { ok: true, replayed: true, kept: await rebuild(earlier.committed) };
  const { kept } = earlier;
  if ("success" in kept) return { ok: true, replayed: true, kept: kept.success };
  return { ok: false, replayed: true, refusal: rebuiltRefusal(kept.refusal) };
}

/**
 * Claims the key for this call (null), or says what an earlier call left. The claim is a single
 * INSERT (an expired one is taken over in the same statement), so two concurrent calls cannot
 * both run; a claim left by a call that died before its write committed is taken over once its
 * lease is over.
 */
async function claimOrFind<K>(claim: Claim, fingerprint: string): Promise<Earlier<K> | null> {
  const now = new Date();
  if (await claimIdempotencyKey(claim, fingerprint, now, new Date(now.getTime() + RETENTION_MS))) return null;
  const first = await earlierClaim(claim);
  // Released between the two statements: claim it again.
  if (!first) return claimOrFind(claim, fingerprint);
  if (first.fingerprint !== fingerprint)
    return {
      refusal: new StateConflictError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with different parameters."),
    };
  const kept = keptOutcome<K>(first.outcome);
  if (kept) return { kept };
  if (first.entityId) return { committed: first.entityId };
  if (await takeOverIdempotencyKey(claim, now, new Date(now.getTime() - CLAIM_LEASE_MS))) return null;
  return { refusal: new StateConflictError("IDEMPOTENCY_KEY_IN_USE", "A call with this Idempotency-Key is still running.") };
}

/** A stored outcome this rule wrote, or null (none yet). */
function keptOutcome<K>(stored: unknown): Kept<K> | null {
  if (stored === null || typeof stored !== "object") return null;
  if ("success" in stored || ("refusal" in stored && isStoredRefusal(stored.refusal))) return stored as Kept<K>;
  return null;
}
