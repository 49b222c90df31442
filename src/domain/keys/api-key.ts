import { createHash, randomBytes } from "node:crypto";
import type { ApiKeyKind } from "../../generated/prisma/client.js";

const TAGS: Record<ApiKeyKind, string> = { MERCHANT: "mk", PAYER: "pk" };

/**
 * A new key `mk_<prefix>_<secret>` (merchant) or `pk_…` (payer). The secret has 256 random bits;
 * only its SHA-256 hash is stored, and the prefix identifies the key in listings and revocation.
 */
export function newApiKey(kind: ApiKeyKind): { key: string; prefix: string; hash: string } {
  const prefix = `${TAGS[kind]}_${randomBytes(6).toString("hex")}`;
  const key = `${prefix}_${randomBytes(32).toString("base64url")}`;
  return { key, prefix, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The prefix of a full key, or the text itself when it is already a prefix. */
export function keyPrefixOf(keyOrPrefix: string): string {
  return keyOrPrefix.trim().split("_").slice(0, 2).join("_");
}
