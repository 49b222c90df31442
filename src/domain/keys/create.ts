import { randomUUID } from "node:crypto";
import { database } from "../../db.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { notFound, requireMerchant, requireWriter } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ForbiddenError, ValidationError } from "../errors.js";
import { createApiKeyInput, type CreateApiKeyInput } from "./schemas.js";
import { recordActivity } from "../audit/trail.js";
import { newApiKey } from "./api-key.js";

/**
 * Issues an API key. The returned `apiKey` is the only time the secret is ever shown. An operator
 * issues any; a merchant (its key, or a console session that may change things) only a key of its
 * own merchant, with no more than its own rights: the calling key's own rate limit, if it has one.
 */
export async function createApiKey(ctx: DomainContext, input: CreateApiKeyInput, qb: QueryBuilder = database) {
  const caller = ctx.actor.kind === "operator" ? null : requireWriter(ctx);
  const parsed = createApiKeyInput.safeParse(input);
  if (!parsed.success) throw new ValidationError("BAD_REQUEST", parsed.error.issues[0]!.message);
  const params = parsed.data;
  const merchantId = params.kind === "MERCHANT" ? params.merchantId : null;
  if (caller && merchantId !== caller.merchantId)
    throw new ForbiddenError("FORBIDDEN", "A merchant makes keys of its own merchant only.");
  // Never more calls a minute than the caller's own key (or the key that linked its console session).
  const rateLimitPerMinute = !caller
    ? null
    : caller.session
      ? caller.session.rateLimitPerMinute
      : ((await qb.selectFrom("apiKey").select("rateLimitPerMinute").where("prefix", "=", caller.keyPrefix).executeTakeFirst())
          ?.rateLimitPerMinute ?? null);
  if (merchantId && !(await qb.selectFrom("merchant").select("id").where("id", "=", merchantId).executeTakeFirst())) {
    throw notFound("MERCHANT_NOT_FOUND");
  }
  const { key, prefix, hash } = newApiKey(params.kind);
  await qb
    .insertInto("apiKey")
    .values({
      id: randomUUID(),
      prefix,
      hash,
      kind: params.kind,
      merchantId,
      label: params.label ?? null,
      rateLimitPerMinute,
      createdAt: ctx.now(),
    })
    .execute();
  await recordActivity(qb, ctx, { action: "key.created", merchantId, outcome: `${params.kind} ${prefix}` });
  ctx.logger.info({ keyPrefix: prefix, kind: params.kind, merchantId }, "api key created");
  return { apiKey: key, prefix, kind: params.kind, merchantId };
}

/** The calling merchant's keys as listed (never their secrets). */
const merchantKeys = (ctx: DomainContext) =>
  database
    .selectFrom("apiKey")
    .select(["prefix", "label", "createdAt", "lastUsedAt", "revokedAt"])
    .where("merchantId", "=", requireMerchant(ctx).merchantId)
    .where("kind", "=", "MERCHANT");

/** The merchant's keys, newest first. */
export async function listMerchantKeys(ctx: DomainContext) {
  return merchantKeys(ctx).orderBy("createdAt", "desc").orderBy("prefix").execute();
}

/** One of the merchant's keys, by its prefix, as listed. */
export async function merchantKey(ctx: DomainContext, prefix: string) {
  return merchantKeys(ctx).where("prefix", "=", prefix).executeTakeFirstOrThrow();
}
