import { authenticate, type AuthenticatedKey } from "../domain/keys/authenticate.js";

/**
 * How long a key read from the database is taken as read: most calls then need no read of their
 * key. A revocation still takes effect at once (its mark is read by the rate limit's charge,
 * key-revocations.ts); a key's own rate limit, changed in the database, within this long.
 */
export const KEY_CACHE_MS = 10_000;
const MAX_KEYS = 10_000;

/** A key as read (or being read), until when it is taken as read, and its prefix once known. */
type Known = { key: Promise<AuthenticatedKey>; until: number; prefix?: string };

/** Keys lately found, by the hash of the key as presented; only keys that exist are kept. */
const known = new Map<string, Known>();

/**
 * The key a call presents (see authenticate), read at most once every KEY_CACHE_MS per process;
 * concurrent calls with a key not yet read share one read.
 */
export function authenticateKnown(presented: string | null, hash: string | null, now = Date.now()): Promise<AuthenticatedKey> {
  if (!hash) return authenticate(presented);
  const hit = known.get(hash);
  if (hit && hit.until > now) return hit.key;
  const key = authenticate(presented, hash);
  if (known.size >= MAX_KEYS) known.delete(known.keys().next().value!);
  const entry: Known = { key, until: now + KEY_CACHE_MS };
  known.set(hash, entry);
  key.then(
    (found) => (entry.prefix = found.keyPrefix),
    () => known.get(hash) === entry && known.delete(hash),
  );
  return key;
}

/** Forgets a key found revoked, so that its next call reads it (and is refused as unknown). */
export function forgetKey(prefix: string): void {
  for (const [hash, entry] of known) if (entry.prefix === prefix) known.delete(hash);
}
