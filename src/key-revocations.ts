import { connectRedis, type RedisClient, type RedisTopology } from "./redis-connection.js";

/**
 * How a revocation reaches running API processes: a mark per revoked key in Redis. An API process
 * takes a key it has read as valid for a few seconds (transport/key-cache.ts); the rate limit's
 * charge, made before a call uses its key, reads the mark in the same round trip, so a revoked key
 * is refused at once by every process. A stream, which makes no more calls once open, is ended by
 * its process within REVOKED_STREAMS_CHECK_MS (revokedAmong, graphql/stream-limit.ts). The mark
 * outlives every such reading by far. Its braces are a Redis Cluster hash tag, the key's rate
 * counter's: the script reads both, so they share a slot.
 */
export const revocationMark = (prefix: string) => `payreq:revoked:{key:${prefix}}`;
export const REVOCATION_MARK_MS = 10 * 60_000;

/**
 * How often an API process reads the marks of the keys it holds subscription streams of: a revoked
 * key's streams end within this long. One EXISTS per key with streams open here, only while any is.
 */
export const REVOKED_STREAMS_CHECK_MS = 2_000;

/** Of these key prefixes, the ones marked revoked: one EXISTS each (in cluster mode, each on its key's node). */
export async function revokedAmong(redis: Pick<RedisClient, "exists">, prefixes: readonly string[]): Promise<string[]> {
  const marked = await Promise.all(prefixes.map((prefix) => redis.exists(revocationMark(prefix))));
  return prefixes.filter((_, i) => marked[i] === 1);
}

let redis: RedisClient | undefined;

/**
 * Connects (on first use) to the Redis the API processes use. A process that revokes keys (the CLI,
 * an API process for apiKeyRevoke) opens it first; once is enough.
 */
export function openKeyRevocations(topology: RedisTopology): void {
  if (redis) return;
  redis = connectRedis(topology, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 2_000 });
  // A failed command says why; the connection's own errors would only repeat it.
  redis.on("error", () => {});
}

/** Leaves the mark of a revoked key. */
export async function markRevoked(prefix: string): Promise<void> {
  if (!redis) throw new Error("openKeyRevocations was not called: revocations could not reach the API processes");
  await redis.set(revocationMark(prefix), "1", "PX", REVOCATION_MARK_MS);
}

export async function closeKeyRevocations(): Promise<void> {
  if (!redis || redis.status === "wait" || redis.status === "end") return;
  await redis.quit().catch(() => redis?.disconnect());
}
