import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deliveryProblems, type EndpointPlan, type ExpectedEvent } from "../../bench/endpoint-check.js";
import { roundMix } from "../../bench/endpoint-deliveries.js";
import { EVENT_OBJECT_CLAIM, EVENT_TYPE_NAMES } from "../../src/domain/events/types.js";

const event = (type: ExpectedEvent["type"]): ExpectedEvent => {
  const id = randomUUID();
  return {
    id,
    type,
    createdAt: new Date("2026-11-27T05:00:00.123Z"),
    payload: { [`${EVENT_OBJECT_CLAIM[type]}Id`]: id, amount: 300 },
  };
};

/** The claims the worker signs for an event (beside iss and iat): its type's name, and its object under its claim. */
const claimsOf = (e: ExpectedEvent): Record<string, unknown> => ({
  jti: e.id,
  type: EVENT_TYPE_NAMES[e.type],
  createdAt: e.createdAt.toISOString(),
  [EVENT_OBJECT_CLAIM[e.type]]: e.payload,
});

const money: EndpointPlan = { name: "money", eventTypes: ["PAYMENT_COMPLETED", "REFUND_COMPLETED"], enabled: true };
const paid = event("PAYMENT_COMPLETED");
const refunded = event("REFUND_COMPLETED");
const cancelled = event("REQUEST_CANCELLED");
const happened = [paid, refunded, cancelled];

describe("the bench's check of an endpoint's deliveries", () => {
  it("accepts exactly the events of the endpoint's types, in any order", () => {
    expect(deliveryProblems(money, happened, [claimsOf(refunded), claimsOf(paid)])).toEqual([]);
    expect(deliveryProblems({ ...money, eventTypes: ["REQUEST_CANCELLED"] }, happened, [claimsOf(cancelled)])).toEqual([]);
  });

  it("refuses an event of a type the endpoint does not subscribe to, one received twice, one unknown, one missing", () => {
    expect(deliveryProblems(money, happened, [claimsOf(paid), claimsOf(refunded), claimsOf(cancelled)])).toEqual([
      `event ${cancelled.id} (request.cancelled), which it does not subscribe to`,
    ]);
    expect(deliveryProblems(money, happened, [claimsOf(paid), claimsOf(refunded), claimsOf(paid)])).toEqual([
      `event ${paid.id} a second time`,
    ]);
    const unknown = { ...claimsOf(paid), jti: "nope" };
    expect(deliveryProblems(money, happened, [claimsOf(paid), claimsOf(refunded), unknown])).toEqual([
      'an unknown event nope (type "payment.completed")',
    ]);
    expect(deliveryProblems(money, happened, [claimsOf(paid)])).toEqual([
      `1 of its events never came (first ${refunded.id}, refund.completed)`,
    ]);
  });

  it("wants nothing at all for a disabled endpoint", () => {
    const disabled = { ...money, enabled: false };
    expect(deliveryProblems(disabled, happened, [])).toEqual([]);
    expect(deliveryProblems(disabled, happened, [claimsOf(paid)])).toEqual([
      `event ${paid.id} (payment.completed), which it may not get: it is disabled`,
    ]);
  });

  it("refuses a token whose type, creation time or object is not the event's", () => {
    const problems = (claims: Record<string, unknown>) => deliveryProblems(money, [paid], [claims]);
    expect(problems({ ...claimsOf(paid), type: "refund.completed" })).toEqual([
      `event ${paid.id} (payment.completed) came with type "refund.completed"`,
    ]);
    expect(problems({ ...claimsOf(paid), createdAt: "2026-11-27T05:00:00.124Z" })).toEqual([
      `event ${paid.id} came with createdAt "2026-11-27T05:00:00.124Z", not 2026-11-27T05:00:00.123Z`,
    ]);
    expect(problems({ ...claimsOf(paid), transaction: { ...(paid.payload as object), amount: 301 } })).toEqual([
      `event ${paid.id}'s transaction claim is not the event's object`,
    ]);
    expect(problems({ ...claimsOf(paid), transaction: undefined, request: paid.payload })).toEqual([
      `event ${paid.id}'s transaction claim is not the event's object`,
    ]);
  });

  it("lists five problems and counts the rest", () => {
    const disabled = { ...money, enabled: false };
    const many = Array.from({ length: 8 }, () => event("PAYMENT_COMPLETED"));
    const problems = deliveryProblems(disabled, many, many.map(claimsOf));
    expect(problems).toHaveLength(6);
    expect(problems[5]).toBe("and 3 more");
  });
});

describe("a round's mix of calls", () => {
  it("makes exactly the deliveries asked for: two a pay, one a refund, one a cancellation", () => {
    for (const count of [3000, 6000, 10000, 20000, 7]) {
      const { pays, refunds, cancels } = roundMix(count);
      expect(2 * pays + refunds + cancels).toBe(count);
      expect(Math.min(pays, refunds, cancels)).toBeGreaterThan(0);
    }
  });
});
