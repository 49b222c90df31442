import { db, type Tx } from "../../db.js";
import { notFound, requireOperator } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { createApiKeyInput, type CreateApiKeyInput } from "./schemas.js";
import { recordActivity } from "../audit/record.js";
import { newApiKey } from "./api-key.js";

/** Issues an API key. The returned `apiKey` is the only time the secret is ever shown. */
export async function createApiKey(ctx: DomainContext, input: CreateApiKeyInput, tx: Tx = db) {
  requireOperator(ctx);
  const parsed = createApiKeyInput.safeParse(input);
  if (!parsed.success) throw new ValidationError("BAD_REQUEST", parsed.error.issues[0]!.message);
  const params = parsed.data;
  const merchantId = params.kind === "MERCHANT" ? params.merchantId : null;
  if (merchantId && !(await tx.merchant.findUnique({ where: { id: merchantId }, select: { id: true } }))) {
    throw notFound("MERCHANT_NOT_FOUND");
  }
  const { key, prefix, hash } = newApiKey(params.kind);
  await tx.apiKey.create({ data: { prefix, hash, kind: params.kind, merchantId, label: params.label ?? null } });
  await recordActivity(tx, ctx, { action: "key.created", merchantId, outcome: `${params.kind} ${prefix}` });
  ctx.logger.info({ keyPrefix: prefix, kind: params.kind, merchantId }, "api key created");
  return { apiKey: key, prefix, kind: params.kind, merchantId };
}
