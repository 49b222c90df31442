import type { RequestStatus } from "../../generated/prisma/client.js";

/** A payment request changed state (paid, cancelled, expired, refunded). */
export interface RequestChange {
  merchantId: string;
  requestId: string;
  change: RequestStatus | "REFUNDED";
}

type Listener = (change: RequestChange) => void;
const listeners = new Set<Listener>();

/**
 * Announces changes after they commit. Each process decides where they go: the API and the
 * worker relay them over Redis to every API process's subscribers (src/graphql/request-changes.ts).
 * Announcing is best effort; the database is the record.
 */
export function announceRequestChange(change: RequestChange): void {
  for (const listener of listeners) listener(change);
}

export function onRequestChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
