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
