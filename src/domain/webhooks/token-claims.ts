import type { Row } from "../../sql/rows.js";
import { EVENT_OBJECT_CLAIM, EVENT_TYPE_NAMES } from "../events/types.js";
import { notificationTransaction } from "./events.js";

/**
 * A delivery's token claims beside iss and iat, which the worker adds when it signs: a notifyUrl's
 * carry the transaction (the legacy format) and the delivery's id as jti; an endpoint's carry the
 * event's type, its creation time and its object, and the event's id as jti (a test event's: its
 * delivery's). Null when the stored payload is not what its kind needs.
 */
export function tokenClaims(
  delivery: Pick<Row<"delivery">, "id" | "type" | "eventId" | "payload" | "createdAt">,
): { jti: string; claims: Record<string, unknown> } | null {
  if (delivery.type === null) {
    const transaction = notificationTransaction.safeParse(delivery.payload);
    return transaction.success ? { jti: delivery.id, claims: { transaction: transaction.data } } : null;
  }
  const object = delivery.payload;
  if (typeof object !== "object" || object === null || Array.isArray(object)) return null;
  return {
    jti: delivery.eventId ?? delivery.id,
    claims: {
      type: EVENT_TYPE_NAMES[delivery.type],
      createdAt: delivery.createdAt.toISOString(),
      [EVENT_OBJECT_CLAIM[delivery.type]]: object,
    },
  };
}
