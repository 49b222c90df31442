import { z } from "zod";

/** A payment request changed state (paid, cancelled, expired) or was refunded. */
export const requestChange = z.object({
  merchantId: z.string().min(1),
  requestId: z.string().min(1),
  change: z.enum(["PAID", "CANCELLED", "EXPIRED", "REFUNDED"]),
});
export type RequestChange = z.infer<typeof requestChange>;

type Listener = (change: RequestChange) => void;
const listeners = new Set<Listener>();

/**
 * Announces a change after it commits, to whatever the process has listening: in the API and the
 * worker, the relay that carries changes to every API process's subscribers (src/pubsub/), and
 * the metrics. Announcing is best effort; the database is the record.
 */
export function announceRequestChange(change: RequestChange): void {
  for (const listener of listeners) listener(change);
}

export function onRequestChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
