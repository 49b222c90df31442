import { db } from "../../db.js";
import type { Actor } from "../context.js";
import { UnauthenticatedError } from "../errors.js";
import { hashApiKey } from "./api-key.js";

/** lastUsedAt is a hint for operators; refreshing it at most once a minute keeps reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves an X-Api-Key header to the actor it speaks for, or throws KEY_NOT_AUTHORIZED. */
export async function authenticate(key: string | null | undefined, now = new Date()): Promise<Actor> {
  if (!key || key.length > 200) throw new UnauthenticatedError();
  const apiKey = await db.apiKey.findUnique({ where: { hash: hashApiKey(key.trim()) } });
  if (!apiKey || apiKey.revokedAt) throw new UnauthenticatedError();
  if (!apiKey.lastUsedAt || now.getTime() - apiKey.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: apiKey.id }, data: { lastUsedAt: now } });
  }
  if (apiKey.kind === "PAYER") return { kind: "payer", keyPrefix: apiKey.prefix };
  if (!apiKey.merchantId) throw new Error(`merchant key ${apiKey.prefix} has no merchant`);
  return { kind: "merchant", merchantId: apiKey.merchantId, keyPrefix: apiKey.prefix };
}
