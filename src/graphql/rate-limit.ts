import type { DocumentNode, GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError } from "../domain/errors.js";
import type { Meter, RateLimiter } from "../transport/rate-limit.js";
import type { RequestContexts } from "../transport/request-context.js";
import type { GraphQLContext } from "./context.js";
import { refusalOf } from "./refusal.js";
import { operationOf, rootFieldCount } from "./root-fields.js";

/** Charges calls to a meter; answers the call's refusal if over the limit (or Redis is unreachable). */
async function charge(limiter: RateLimiter, meter: Meter, calls: number): Promise<GraphQLError | null> {
  try {
    await limiter.charge(meter, calls);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return refusalOf(error);
    throw error;
  }
}

/**
 * Charges each GraphQL call to its API key's rate limit, or to its client address when it has no
 * valid key (its fields then fail with KEY_NOT_AUTHORIZED). Over the limit the answer is HTTP 429
 * with Retry-After and `extensions.code` RATE_LIMIT_EXCEEDED, and nothing of the call runs.
 *
 * One call is charged as the request arrives, before its body is read: a document refused before
 * it runs (unreadable, invalid, too deep, too costly) costs that one call, and a caller past its
 * limit is refused before its document costs any parsing or validation. An operation that runs is
 * charged the rest of one call per root field (each alias counts), at least one in all.
 */
export function useRateLimit(limiter: RateLimiter, contexts: RequestContexts): Plugin<GraphQLContext> {
  // If the key cannot even be looked up (database down), the fields report that themselves.
  const meterOf = (context: { meter: () => Promise<Meter> }) => context.meter().catch(() => null);

  // What execute and subscribe share of their hooks' payloads.
  type Payload = {
    args: { contextValue: GraphQLContext; document: DocumentNode; operationName?: string | null };
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  };
  const chargeRootFields = async ({ args, setResultAndStopExecution }: Payload) => {
    const operation = operationOf(args.document, args.operationName);
    const rest = (operation ? rootFieldCount(operation, args.document) : 0) - 1;
    if (rest <= 0) return;
    const meter = await meterOf(args.contextValue);
    if (!meter) return;
    const refused = await charge(limiter, meter, rest);
    if (refused) setResultAndStopExecution({ errors: [refused] });
  };

  return {
    async onRequestParse({ request }) {
      const meter = await meterOf(contexts(request));
      const refused = meter && (await charge(limiter, meter, 1));
      if (refused) throw refused;
    },
    onExecute: chargeRootFields,
    onSubscribe: chargeRootFields,
  };
}
