import { pool, prepared, toUtcText } from "../../db.js";
import { queryRow, statement } from "../../sql/statements.js";
import { apiKeys } from "../../sql/tables.js";
import type { Actor } from "../context.js";
import { UnauthenticatedError } from "../errors.js";
import { hashApiKey } from "./api-key.js";

/** The key a call was made with: who it speaks for, and what the transports need to meter it. */
export interface AuthenticatedKey {
  actor: Exclude<Actor, { kind: "operator" }>;
  keyId: string;
  keyPrefix: string;
  /** The key's own calls-per-minute limit, if it has one. */
  rateLimitPerMinute: number | null;
  lastUsedAt: Date | null;
}

const KEY_BY_HASH = statement(
  `SELECT id, prefix, kind, merchant_id AS "merchantId", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt",
          rate_limit_per_minute AS "rateLimitPerMinute"
   FROM api_key WHERE hash = $1`,
  apiKeys.pick("id", "prefix", "kind", "merchantId", "revokedAt", "lastUsedAt", "rateLimitPerMinute").columns,
);

/**
 * Resolves an X-Api-Key header to the key and the actor it speaks for, or throws KEY_NOT_AUTHORIZED.
 * `hash` is the key's hash (hashApiKey), when the caller has it already.
 */
export async function authenticate(key: string | null | undefined, hash?: string): Promise<AuthenticatedKey> {
  if (!key || key.length > 200) throw new UnauthenticatedError();
  // Every call starts here, so it reads with plain SQL (see docs/architecture.md).
  const apiKey = await queryRow(pool, KEY_BY_HASH, [hash ?? hashApiKey(key.trim())]);
  if (!apiKey || apiKey.revokedAt) throw new UnauthenticatedError();
  const meta = {
    keyId: apiKey.id,
    keyPrefix: apiKey.prefix,
    rateLimitPerMinute: apiKey.rateLimitPerMinute,
    lastUsedAt: apiKey.lastUsedAt,
  };
  if (apiKey.kind === "PAYER") return { actor: { kind: "payer", keyPrefix: apiKey.prefix }, ...meta };
  if (!apiKey.merchantId) throw new Error(`merchant key ${apiKey.prefix} has no merchant`);
  return { actor: { kind: "merchant", merchantId: apiKey.merchantId, keyPrefix: apiKey.prefix }, ...meta };
}

/** lastUsedAt is a hint for operators; refreshing it at most once a minute keeps reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Records that a key was used, at most once a minute per key (`key` remembers when, for keys read once and used again). */
export async function recordKeyUse(key: AuthenticatedKey, now: Date): Promise<void> {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now;
  await pool.query(prepared("UPDATE api_key SET last_used_at = $2 WHERE id = $1", [key.keyId, toUtcText(now)]));
}
