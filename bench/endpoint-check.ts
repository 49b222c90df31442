/**
 * What the bench counts as a correct delivery to a webhook endpoint: the endpoint gets each event of
 * a type it subscribes to exactly once (none when it is disabled), and nothing else, each token's
 * claims naming the event (jti), its type, its creation time and its object as the event table
 * holds them. Pure (test/bench/endpoint-check.test.ts); the signatures are checked before this.
 */
import { isDeepStrictEqual } from "node:util";
import { EVENT_OBJECT_CLAIM, EVENT_TYPE_NAMES, type SubscribableEventType } from "../src/domain/events/types.js";

/** An event as the `event` table holds it. */
export interface ExpectedEvent {
  id: string;
  type: SubscribableEventType;
  createdAt: Date;
  payload: unknown;
}

export interface EndpointPlan {
  /** The receiver's path for it, and its name in messages. */
  name: string;
  eventTypes: SubscribableEventType[];
  enabled: boolean;
}

/** How many problems a message lists before it only counts the rest. */
const LISTED = 5;

/** Whether the claims are those of `event`'s token: its type, its creation time and its object under the type's claim. */
function claimProblem(claims: Record<string, unknown>, event: ExpectedEvent): string | null {
  const name = EVENT_TYPE_NAMES[event.type];
  if (claims.type !== name) return `event ${event.id} (${name}) came with type ${JSON.stringify(claims.type)}`;
  if (claims.createdAt !== event.createdAt.toISOString())
    return `event ${event.id} came with createdAt ${JSON.stringify(claims.createdAt)}, not ${event.createdAt.toISOString()}`;
  const claim = EVENT_OBJECT_CLAIM[event.type];
  if (!isDeepStrictEqual(claims[claim], event.payload)) return `event ${event.id}'s ${claim} claim is not the event's object`;
  return null;
}

/**
 * Everything wrong with what `endpoint` received (the verified claims of each token, in arrival
 * order) given the events that happened: an unknown or unsubscribed event, one received twice, a
 * claim that differs from the event, an event it should have had and did not. Empty when correct.
 */
export function deliveryProblems(endpoint: EndpointPlan, events: ExpectedEvent[], received: Record<string, unknown>[]): string[] {
  const byId = new Map(events.map((event) => [event.id, event]));
  const wanted = (event: ExpectedEvent) => endpoint.enabled && endpoint.eventTypes.includes(event.type);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const claims of received) {
    const jti = String(claims.jti);
    const event = byId.get(jti);
    if (!event) problems.push(`an unknown event ${jti} (type ${JSON.stringify(claims.type)})`);
    else if (!wanted(event))
      problems.push(
        `event ${jti} (${EVENT_TYPE_NAMES[event.type]}), which it ${endpoint.enabled ? "does not subscribe to" : "may not get: it is disabled"}`,
      );
    else if (seen.has(jti)) problems.push(`event ${jti} a second time`);
    else {
      const wrong = claimProblem(claims, event);
      if (wrong) problems.push(wrong);
    }
    seen.add(jti);
  }
  const missing = events.filter((event) => wanted(event) && !seen.has(event.id));
  if (missing.length)
    problems.push(`${missing.length} of its events never came (first ${missing[0]!.id}, ${EVENT_TYPE_NAMES[missing[0]!.type]})`);
  return problems.length <= LISTED ? problems : [...problems.slice(0, LISTED), `and ${problems.length - LISTED} more`];
}
