import { db } from "../../db.js";
import { markRevoked } from "../../key-revocations.js";
import { requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ExternalServiceError, ValidationError } from "../errors.js";
import { keyPrefixOf } from "./api-key.js";
import { revokeApiKeyInput } from "./schemas.js";
import { recordActivity } from "../audit/record.js";

/** Revokes a key by its prefix (or the whole key); calls with it answer KEY_NOT_AUTHORIZED from then on. */
export async function revokeApiKey(ctx: DomainContext, keyOrPrefix: string) {
  requireOperator(ctx);
  const parsed = revokeApiKeyInput.safeParse({ prefix: keyOrPrefix });
  if (!parsed.success) throw new ValidationError("BAD_REQUEST", `KEY_PREFIX ${parsed.error.issues[0]!.message}`);
  const prefix = keyPrefixOf(parsed.data.prefix);
  const now = ctx.now();
  const revoked = await db.$transaction(async (tx) => {
    const result = await tx.apiKey.updateMany({ where: { prefix, revokedAt: null }, data: { revokedAt: now } });
    const key = await tx.apiKey.findUnique({ where: { prefix }, select: { merchantId: true } });
    if (result.count === 1)
      await recordActivity(tx, ctx, { action: "key.revoked", merchantId: key?.merchantId, outcome: `revoked ${prefix}` });
    return result;
  });
  const key = await db.apiKey.findUnique({ where: { prefix } });
  if (!key) throw new ValidationError("BAD_REQUEST", `No API key has the prefix ${prefix}.`);
  try {
    await markRevoked(prefix);
  } catch (err) {
    throw new ExternalServiceError(
      `The key ${prefix} is revoked, but Redis could not be told: API processes may accept it for 10 seconds more.`,
      { cause: err },
    );
  }
  ctx.logger.info({ keyPrefix: prefix }, revoked.count ? "api key revoked" : "api key was already revoked");
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
  return db.$transaction(async (tx) => {
    const where = {
      merchantId,
      kind: merchantId ? ("MERCHANT" as const) : ("PAYER" as const),
      label: { in: labels },
      revokedAt: null,
    };
    const keys = await tx.apiKey.findMany({ where, select: { prefix: true } });
    await tx.apiKey.updateMany({ where: { ...where, prefix: { in: keys.map((key) => key.prefix) } }, data: { revokedAt: now } });
    for (const { prefix } of keys)
      await recordActivity(tx, ctx, { action: "key.revoked", merchantId, outcome: `revoked ${prefix}` });
    return keys.map((key) => key.prefix);
  });
}
