import type { JWK } from "jose";
import { sql } from "kysely";
import { database } from "../../db.js";
import type { QueryBuilder } from "../../sql/query-builder.js";

/** Waits for, then holds until the transaction ends, the lock named `name` (one per kind of work). */
const lockFor = (qb: QueryBuilder, name: string) => sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(qb);

/**
 * Public halves of the notification signing keys. Exactly one is current; a key that a newer one
 * replaced stays published (in the JWKS) until its overlap ends, so tokens it signed keep verifying.
 */

/**
 * Where a key's private half is kept: `setting`, a worker's WEBHOOK_SIGNING_KEY (rotated by
 * deploying another), or `directory`, a file in WEBHOOK_SIGNING_KEY_DIR (rotated by `signing-key
 * rotate`). A worker can sign with the current key only if it keeps keys the same way (worker/signing.ts).
 */
export type SigningKeySource = "setting" | "directory";

/**
 * Makes `kid` the current key, kept as `source` says, retiring the previous current key with
 * `overlapMs` of publication. A key that is already current is now kept as `source` says: a worker
 * given the current key's file as WEBHOOK_SIGNING_KEY takes it over for the setting.
 */
export async function publishSigningKey(kid: string, publicJwk: JWK, now: Date, overlapMs: number, source: SigningKeySource) {
  await database.transaction().execute(async (trx) => {
    // Rotations queue behind each other, so two at once cannot both retire the same current key.
    await lockFor(trx, "signing_key");
    const current = await trx
      .selectFrom("signingKey")
      .select(["kid", "source"])
      .where("retiredAt", "is", null)
      .executeTakeFirst();
    if (current?.kid === kid) {
      if (current.source !== source) await trx.updateTable("signingKey").set({ source }).where("kid", "=", kid).execute();
      return;
    }
    if (current) {
      await trx
        .updateTable("signingKey")
        .set({ retiredAt: now, publishedUntil: new Date(now.getTime() + overlapMs) })
        .where("kid", "=", current.kid)
        .execute();
    }
    await trx
      .insertInto("signingKey")
      .values({ kid, publicJwk: JSON.stringify(publicJwk), createdAt: now, source })
      .onConflict((conflict) => conflict.column("kid").doUpdateSet({ retiredAt: null, publishedUntil: null, source }))
      .execute();
  });
}

/**
 * Runs `run` while no other process of this database runs it: workers starting at once on an
 * empty key directory take turns, so the first generates the key and the others find it. (A
 * transaction-level advisory lock of its own: `run` publishes through publishSigningKey, whose
 * lock is another.)
 */
export async function holdingKeyGeneration<T>(run: () => Promise<T>): Promise<T> {
  return database.transaction().execute(async (trx) => {
    await lockFor(trx, "signing_key_generation");
    return run();
  });
}

/** The current key's kid and where it is kept (null: not recorded), or null when there is none. */
export async function currentSigningKey(): Promise<{ kid: string; source: SigningKeySource | null } | null> {
  const key = await database.selectFrom("signingKey").select(["kid", "source"]).where("retiredAt", "is", null).executeTakeFirst();
  return key ? { kid: key.kid, source: key.source as SigningKeySource | null } : null;
}

export async function currentSigningKid(): Promise<string | null> {
  return (await currentSigningKey())?.kid ?? null;
}

/** The JWKS: the current key and retired keys still inside their overlap. */
export async function publishedSigningKeys(now: Date): Promise<{ keys: JWK[] }> {
  const keys = await database
    .selectFrom("signingKey")
    .select(["kid", "publicJwk"])
    .where((eb) => eb.or([eb("retiredAt", "is", null), eb("publishedUntil", ">", now)]))
    .orderBy("createdAt", "desc")
    .execute();
  return { keys: keys.map((key) => ({ ...(key.publicJwk as JWK), kid: key.kid, alg: "ES256", use: "sig" })) };
}
