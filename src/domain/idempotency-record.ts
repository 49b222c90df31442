import type { QueryCreator, RawBuilder } from "kysely";
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
