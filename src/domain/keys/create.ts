import { randomUUID } from "node:crypto";
import { database } from "../../db.js";
import type { QueryBuilder } from "../../sql/query-builder.js";
import { notFound, requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { createApiKeyInput, type CreateApiKeyInput } from "./schemas.js";
import { recordActivity } from "../audit/trail.js";
import { newApiKey } from "./api-key.js";

/** Issues an API key. The returned `apiKey` is the only time the secret is ever shown. */
export async function createApiKey(ctx: DomainContext, input: CreateApiKeyInput, qb: QueryBuilder = database) {
  requireOperator(ctx);
  const parsed = createApiKeyInput.safeParse(input);
  if (!parsed.success) throw new ValidationError("BAD_REQUEST", parsed.error.issues[0]!.message);
  const params = parsed.data;
  const merchantId = params.kind === "MERCHANT" ? params.merchantId : null;
  if (merchantId && !(await qb.selectFrom("merchant").select("id").where("id", "=", merchantId).executeTakeFirst())) {
    throw notFound("MERCHANT_NOT_FOUND");
  }
  const { key, prefix, hash } = newApiKey(params.kind);
  await qb
    .insertInto("apiKey")
    .values({ id: randomUUID(), prefix, hash, kind: params.kind, merchantId, label: params.label ?? null, createdAt: ctx.now() })
    .execute();
  await recordActivity(qb, ctx, { action: "key.created", merchantId, outcome: `${params.kind} ${prefix}` });
  ctx.logger.info({ keyPrefix: prefix, kind: params.kind, merchantId }, "api key created");
  return { apiKey: key, prefix, kind: params.kind, merchantId };
}
