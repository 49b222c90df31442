import { EVENT_TYPE_NAMES } from "../../domain/events/types.js";
import { builder } from "../builder.js";

const described = (text: string, type: keyof typeof EVENT_TYPE_NAMES) => ({
  description: `${text} (\`${EVENT_TYPE_NAMES[type]}\`).`,
});

/** Event types by the enum's names; tokens, REST and the docs use the dotted names. */
export const EventTypeEnum = builder.enumType("EventType", {
  description: "What happened to a payment request. Tokens and REST name them dotted: `payment.completed`.",
  values: {
    PAYMENT_COMPLETED: described("A payment completed", "PAYMENT_COMPLETED"),
    REFUND_COMPLETED: described("A refund completed", "REFUND_COMPLETED"),
    REQUEST_CANCELLED: described("A request was cancelled", "REQUEST_CANCELLED"),
    REQUEST_EXPIRED: described("A request expired unpaid", "REQUEST_EXPIRED"),
    PING: described("A test event, sent to one endpoint on request; never listed", "PING"),
  } as const,
});
