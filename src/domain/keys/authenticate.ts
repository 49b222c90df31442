import { database } from "../../db.js";
import { compiled } from "../../sql/compiled.js";
import type { Row } from "../../sql/rows.js";
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

type KeyRow = Pick<Row<"apiKey">, "id" | "prefix" | "kind" | "merchantId" | "revokedAt" | "lastUsedAt" | "rateLimitPerMinute">;

/** Every call starts here, so the statement is compiled once (src/sql/compiled.ts). */
const KEY_BY_HASH = compiled<{ hash: string }, KeyRow>((qb, param) =>
  qb
    .selectFrom("apiKey")
    .select(["id", "prefix", "kind", "merchantId", "revokedAt", "lastUsedAt", "rateLimitPerMinute"])
    .where("hash", "=", param("hash")),
);

const RECORD_USE = compiled<{ keyId: string; now: Date }, never>((qb, param) =>
  qb
    .updateTable("apiKey")
    .set({ lastUsedAt: param("now") })
    .where("id", "=", param("keyId")),
);

/**
 * Resolves an X-Api-Key header to the key and the actor it speaks for, or throws KEY_NOT_AUTHORIZED.
 * `hash` is the key's hash (hashApiKey), when the caller has it already.
 */
export async function authenticate(key: string | null | undefined, hash?: string): Promise<AuthenticatedKey> {
  if (!key || key.length > 200) throw new UnauthenticatedError();
  const [apiKey] = await KEY_BY_HASH(database, { hash: hash ?? hashApiKey(key.trim()) });
  // A rolled key is revoked from a time to come (rollApiKey): until then it works.
  if (!apiKey || (apiKey.revokedAt && apiKey.revokedAt.getTime() <= Date.now())) throw new UnauthenticatedError();
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
  await RECORD_USE(database, { keyId: key.keyId, now });
}
