import type { JWK } from "jose";
import { db } from "../../db.js";

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
  await db.$transaction(async (tx) => {
    // Rotations queue behind each other, so two at once cannot both retire the same current key.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('signing_key'))`;
    const current = await tx.signingKey.findFirst({ where: { retiredAt: null } });
    if (current?.kid === kid) {
      if (current.source !== source) await tx.signingKey.update({ where: { kid }, data: { source } });
      return;
    }
    if (current) {
      await tx.signingKey.update({
        where: { kid: current.kid },
        data: { retiredAt: now, publishedUntil: new Date(now.getTime() + overlapMs) },
      });
    }
    await tx.signingKey.upsert({
      where: { kid },
      create: { kid, publicJwk, createdAt: now, source },
      update: { retiredAt: null, publishedUntil: null, source },
    });
  });
}

/**
 * Runs `run` while no other process of this database runs it: workers starting at once on an
 * empty key directory take turns, so the first generates the key and the others find it. (A
 * transaction-level advisory lock of its own: `run` publishes through publishSigningKey, whose
 * lock is another.)
 */
export async function holdingKeyGeneration<T>(run: () => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('signing_key_generation'))`;
      return run();
    },
    { maxWait: 30_000, timeout: 60_000 },
  );
}

/** The current key's kid and where it is kept (null: not recorded), or null when there is none. */
export async function currentSigningKey(): Promise<{ kid: string; source: SigningKeySource | null } | null> {
  const key = await db.signingKey.findFirst({ where: { retiredAt: null }, select: { kid: true, source: true } });
  return key && { kid: key.kid, source: key.source as SigningKeySource | null };
}

export async function currentSigningKid(): Promise<string | null> {
  return (await currentSigningKey())?.kid ?? null;
}

/** The JWKS: the current key and retired keys still inside their overlap. */
export async function publishedSigningKeys(now: Date): Promise<{ keys: JWK[] }> {
  const keys = await db.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { publishedUntil: { gt: now } }] },
    orderBy: { createdAt: "desc" },
  });
  return { keys: keys.map((key) => ({ ...(key.publicJwk as JWK), kid: key.kid, alg: "ES256", use: "sig" })) };
}
