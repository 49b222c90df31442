import { database } from "../../db.js";
import { markRevoked } from "../../key-revocations.js";
import { requireOperator, requireWriter } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ExternalServiceError, ValidationError } from "../errors.js";
import { keyPrefixOf } from "./api-key.js";
import { createApiKey } from "./create.js";
import { revokeApiKeyInput } from "./schemas.js";
import { recordActivity } from "../audit/trail.js";

/**
 * Revokes a key by its prefix (or the whole key); calls with it answer KEY_NOT_AUTHORIZED from then
 * on. An operator revokes any; a merchant (that may change things) its own merchant's only.
 */
export async function revokeApiKey(ctx: DomainContext, keyOrPrefix: string) {
  const merchantId = ctx.actor.kind === "operator" ? null : requireWriter(ctx).merchantId;
  const parsed = revokeApiKeyInput.safeParse({ prefix: keyOrPrefix });
  if (!parsed.success) throw new ValidationError("BAD_REQUEST", `KEY_PREFIX ${parsed.error.issues[0]!.message}`);
  const prefix = keyPrefixOf(parsed.data.prefix);
  const now = ctx.now();
  const revoked = await database.transaction().execute(async (trx) => {
    const key = await trx
      .updateTable("apiKey")
      .set({ revokedAt: now })
      .where("prefix", "=", prefix)
      // A key rolled to be revoked later is revoked now.
      .where((eb) => eb.or([eb("revokedAt", "is", null), eb("revokedAt", ">", now)]))
      .$if(merchantId !== null, (qb) => qb.where("merchantId", "=", merchantId))
      .returning("merchantId")
      .executeTakeFirst();
    if (key) await recordActivity(trx, ctx, { action: "key.revoked", merchantId: key.merchantId, outcome: `revoked ${prefix}` });
    return key !== undefined;
  });
  const key = await database
    .selectFrom("apiKey")
    .select("revokedAt")
    .where("prefix", "=", prefix)
    .$if(merchantId !== null, (qb) => qb.where("merchantId", "=", merchantId))
    .executeTakeFirst();
  if (!key) throw new ValidationError("BAD_REQUEST", `No API key has the prefix ${prefix}.`);
  try {
    await markRevoked(prefix);
  } catch (err) {
    throw new ExternalServiceError(
      `The key ${prefix} is revoked, but Redis could not be told: API processes may accept it for 10 seconds more.`,
      { cause: err },
    );
  }
  ctx.logger.info({ keyPrefix: prefix }, revoked ? "api key revoked" : "api key was already revoked");
  return { prefix, revokedAt: key.revokedAt!.toISOString() };
}

/**
 * Revokes every live key with one of these labels: the merchant's keys, or with `merchantId` null the
 * payer keys. In the database only, for keys that no running process has read (the demo keys an
 * earlier `npm start` printed): an API process takes a key it read as valid for 10 seconds, and only
 * `revokeApiKey`'s mark in Redis ends that at once. Answers the prefixes revoked.
 */
export async function revokeKeysLabelled(
  ctx: DomainContext,
  { merchantId, labels }: { merchantId: string | null; labels: string[] },
): Promise<string[]> {
  requireOperator(ctx);
  const now = ctx.now();
  if (labels.length === 0) return [];
  return database.transaction().execute(async (trx) => {
    const keys = await trx
      .updateTable("apiKey")
      .set({ revokedAt: now })
      .where((eb) => (merchantId === null ? eb("merchantId", "is", null) : eb("merchantId", "=", merchantId)))
      .where("kind", "=", merchantId ? "MERCHANT" : "PAYER")
      .where("label", "in", labels)
      .where("revokedAt", "is", null)
      .returning("prefix")
      .execute();
    for (const { prefix } of keys)
      await recordActivity(trx, ctx, { action: "key.revoked", merchantId, outcome: `revoked ${prefix}` });
    return keys.map((key) => key.prefix);
  });
}

/** The longest a rolled key keeps working beside its successor. */
export const MOST_OVERLAP_SECONDS = 7 * 86_400;

/**
 * Rolls a merchant key: a new key with its label (shown once, with no more rights than the
 * caller's, as createApiKey makes it), and the old one revoked `overlapSeconds` from now (0: at
 * once), so that what uses it can move to the new one meanwhile. An API process may accept the old
 * key for up to 10 seconds past that time (the key cache), as after a revocation.
 */
export async function rollApiKey(
  ctx: DomainContext,
  { prefix: given, overlapSeconds }: { prefix: string; overlapSeconds: number },
) {
  const { merchantId } = requireWriter(ctx);
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MOST_OVERLAP_SECONDS)
    throw new ValidationError("BAD_REQUEST", `overlapSeconds must be a whole number from 0 to ${MOST_OVERLAP_SECONDS}.`);
  const parsed = revokeApiKeyInput.safeParse({ prefix: given });
  if (!parsed.success) throw new ValidationError("BAD_REQUEST", `KEY_PREFIX ${parsed.error.issues[0]!.message}`);
  const prefix = keyPrefixOf(parsed.data.prefix);
  const now = ctx.now();
  const revokedAt = new Date(now.getTime() + overlapSeconds * 1000);
  const created = await database.transaction().execute(async (trx) => {
    const old = await trx
      .updateTable("apiKey")
      .set({ revokedAt })
      .where("prefix", "=", prefix)
      .where("merchantId", "=", merchantId)
      .where("kind", "=", "MERCHANT")
      .where((eb) => eb.or([eb("revokedAt", "is", null), eb("revokedAt", ">", now)]))
      .returning("label")
      .executeTakeFirst();
    if (!old) throw new ValidationError("BAD_REQUEST", `No live API key of this merchant has the prefix ${prefix}.`);
    const made = await createApiKey(ctx, { kind: "MERCHANT", merchantId, label: old.label ?? undefined }, trx);
    await recordActivity(trx, ctx, {
      action: "key.rolled",
      merchantId,
      outcome: `${prefix} → ${made.prefix}, revoked at ${revokedAt.toISOString()}`,
    });
    return made;
  });
  if (overlapSeconds === 0) await markRevoked(prefix).catch(() => {});
  ctx.logger.info({ keyPrefix: prefix, successor: created.prefix, revokedAt }, "api key rolled");
  return { key: created.apiKey, prefix: created.prefix, revokedAt };
}
