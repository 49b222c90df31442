import { db, pool } from "../../db.js";
import type { ApiKey } from "../../generated/prisma/client.js";
import type { Actor } from "../context.js";
import { UnauthenticatedError } from "../errors.js";
import { hashApiKey } from "./api-key.js";
import { countRequest } from "./rate-limit.js";

type ApiKeyRow = Pick<ApiKey, "id" | "prefix" | "kind" | "merchantId" | "revokedAt" | "lastUsedAt" | "rateLimitPerMinute">;

/** lastUsedAt is a hint for operators; refreshing it at most once a minute keeps reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves an X-Api-Key header to the actor it speaks for, or throws KEY_NOT_AUTHORIZED; then
 * counts the call against the key's per-minute limit (RATE_LIMIT_EXCEEDED past it).
 */
export async function authenticate(key: string | null | undefined, now = new Date()): Promise<Actor> {
  if (!key || key.length > 200) throw new UnauthenticatedError();
  // Every call starts here, so it reads with plain SQL: Prisma costs ~10x per query (see bench/).
  const { rows } = await pool.query<ApiKeyRow>(
    `SELECT id, prefix, kind, merchant_id AS "merchantId", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt",
            rate_limit_per_minute AS "rateLimitPerMinute"
     FROM api_key WHERE hash = $1`,
    [hashApiKey(key.trim())],
  );
  const apiKey = rows[0];
  if (!apiKey || apiKey.revokedAt) throw new UnauthenticatedError();
  if (!apiKey.lastUsedAt || now.getTime() - apiKey.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: apiKey.id }, data: { lastUsedAt: now } });
  }
  await countRequest(apiKey.prefix, apiKey.rateLimitPerMinute, now);
  if (apiKey.kind === "PAYER") return { kind: "payer", keyPrefix: apiKey.prefix };
  if (!apiKey.merchantId) throw new Error(`merchant key ${apiKey.prefix} has no merchant`);
  return { kind: "merchant", merchantId: apiKey.merchantId, keyPrefix: apiKey.prefix };
}
