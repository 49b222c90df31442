import { sql, type QueryCreator, type RawBuilder } from "kysely";
import { database } from "../db.js";
import { compiled } from "../sql/compiled.js";
import type { DB } from "../generated/kysely/database.js";
import type { Param } from "../sql/compiled.js";
import type { QueryBuilder } from "../sql/query-builder.js";

/**
 * The idempotency key a call claimed (transport/idempotency.ts): whose it is (an API key's prefix,
 * or `operator`) and the key the caller sent.
 */
export interface IdempotencyClaim {
  scope: string;
  key: string;
}

/** The values of `idempotencyRecordUpdate`: the claim (nulls when the call carries none) and the entity to record on it. */
export interface IdempotencyRecordParams {
  claimScope: string | null;
  claimKey: string | null;
  entityId: string;
}

export const idempotencyRecordParams = (claim: IdempotencyClaim | undefined, entityId: string): IdempotencyRecordParams => ({
  claimScope: claim?.scope ?? null,
  claimKey: claim?.key ?? null,
  entityId,
});

/**
 * The part of a write statement (a CTE's body) that records, on the call's idempotency claim, the
 * entity its change produced, so the record commits with the change: a retry after a crash between
 * the commit and the kept answer finds the entity. A call without a key matches no claim (its
 * scope and key are null). With `when`, it takes effect only if that holds (a CTE returned a row).
 */
export const idempotencyRecordUpdate = (qb: QueryBuilder, param: Param<IdempotencyRecordParams>, when?: RawBuilder<boolean>) => {
  const update = qb
    .updateTable("idempotencyKey")
    .set({ entityId: param("entityId") })
    .where((eb) => eb.and([eb("apiKeyPrefix", "=", eb.val(param("claimScope"))), eb("key", "=", eb.val(param("claimKey")))]));
  return when ? update.where(when) : update;
};

/** Whether a call's values carry an idempotency claim: its compiled write then records on it. */
export const carriesClaim = (params: IdempotencyRecordParams) => params.claimKey !== null;

/**
 * `qb` with the call's idempotency record (`idempotencyRecordUpdate`) as a CTE, for the shape of a
 * compiled write that has one (`claimed`, see carriesClaim); `qb` itself for the shape without.
 */
export function withCompiledIdempotencyRecord(qb: QueryBuilder, param: Param<IdempotencyRecordParams>, claimed: boolean) {
  // Nothing in the statement reads the CTE: it goes on as a statement of the schema's tables.
  return claimed ? (qb.with("claim", (db) => idempotencyRecordUpdate(db as QueryBuilder, param)) as unknown as QueryBuilder) : qb;
}

/**
 * `qb` with the call's idempotency record as a CTE of the statement built on it, for the cold
 * writes built per call (an endpoint's creation, a recovery's note); `qb` itself when the call
 * carries no key.
 */
export function withIdempotencyRecord(
  qb: QueryCreator<DB>,
  { idempotencyClaim: claim }: { idempotencyClaim?: IdempotencyClaim | undefined },
  entityId: string,
): QueryCreator<DB> {
  if (!claim) return qb;
  const record = qb.with("claim", (db) =>
    db.updateTable("idempotencyKey").set({ entityId }).where("apiKeyPrefix", "=", claim.scope).where("key", "=", claim.key),
  );
  // Nothing in the statement reads the CTE: it goes on as a statement of the schema's tables.
  return record as unknown as QueryCreator<DB>;
}

type ClaimParams = { scope: string; key: string };

const CLAIM = compiled<ClaimParams & { fingerprint: string; now: Date; expiresAt: Date }, { apiKeyPrefix: string }>((qb, param) =>
  qb
    .insertInto("idempotencyKey")
    .values({
      apiKeyPrefix: param("scope"),
      key: param("key"),
      fingerprint: param("fingerprint"),
      createdAt: param("now"),
      expiresAt: param("expiresAt"),
    })
    .onConflict((conflict) =>
      conflict
        .columns(["apiKeyPrefix", "key"])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref("excluded.fingerprint"),
          outcome: null,
          entityId: null,
          createdAt: eb.ref("excluded.createdAt"),
          expiresAt: eb.ref("excluded.expiresAt"),
        }))
        .where("idempotencyKey.expiresAt", "<", (eb) => eb.ref("excluded.createdAt")),
    )
    .returning("apiKeyPrefix"),
);

/**
 * Claims `claim` for a call whose input reads as `fingerprint`, until `expiresAt`: true when this
 * call has it. One INSERT, which takes over a claim past its expiry in the same statement, so two
 * concurrent calls cannot both have it.
 */
export async function claimIdempotencyKey(claim: IdempotencyClaim, fingerprint: string, now: Date, expiresAt: Date) {
  return (await CLAIM(database, { ...claim, fingerprint, now, expiresAt })).length > 0;
}

const EARLIER = compiled<ClaimParams, { fingerprint: string; outcome: unknown; entityId: string | null }>((qb, param) =>
  qb
    .selectFrom("idempotencyKey")
    .select(["fingerprint", "outcome", "entityId"])
    .where("apiKeyPrefix", "=", param("scope"))
    .where("key", "=", param("key")),
);

/** What the call that has `claim` left on it: the input it read, its kept answer and the entity its write recorded. */
export async function earlierClaim(claim: IdempotencyClaim) {
  return (await EARLIER(database, claim))[0];
}

const TAKE_OVER = compiled<ClaimParams & { now: Date; leaseStart: Date }, { apiKeyPrefix: string }>((qb, param) =>
  qb
    .updateTable("idempotencyKey")
    .set({ createdAt: param("now") })
    .where("apiKeyPrefix", "=", param("scope"))
    .where("key", "=", param("key"))
    .where("outcome", "is", null)
    .where("entityId", "is", null)
    .where("createdAt", "<", param("leaseStart"))
    .returning("apiKeyPrefix"),
);

/** Takes over a claim whose call left neither an answer nor an entity and claimed it before `leaseStart`: true when it did. */
export async function takeOverIdempotencyKey(claim: IdempotencyClaim, now: Date, leaseStart: Date) {
  return (await TAKE_OVER(database, { ...claim, now, leaseStart })).length > 0;
}

const KEEP = compiled<ClaimParams & { outcome: string }, never>((qb, param) =>
  qb
    .updateTable("idempotencyKey")
    .set({ outcome: sql`${param("outcome")}::jsonb` })
    .where("apiKeyPrefix", "=", param("scope"))
    .where("key", "=", param("key")),
);

/** Keeps, on the claim, the answer a retry is given (JSON). */
export async function keepIdempotentAnswer(claim: IdempotencyClaim, outcome: unknown) {
  await KEEP(database, { ...claim, outcome: JSON.stringify(outcome) });
}

const RELEASE = compiled<ClaimParams, never>((qb, param) =>
  qb
    .deleteFrom("idempotencyKey")
    .where("apiKeyPrefix", "=", param("scope"))
    .where("key", "=", param("key"))
    .where("entityId", "is", null),
);

/** Frees the claim for a retry, unless its write committed (its entity is recorded): then a retry is answered with the entity. */
export async function releaseIdempotencyKey(claim: IdempotencyClaim) {
  await RELEASE(database, claim);
}
