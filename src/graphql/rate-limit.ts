import { GraphQLError, type DocumentNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError, RateLimitedError } from "../domain/errors.js";
import { chargeCalls } from "../transport/rate-limit.js";
import type { GraphQLContext } from "./context.js";
import { operationOf, rootFieldCount } from "./root-fields.js";

/**
 * Charges each operation to its API key's rate limit, one call per root field (each alias
 * counts), before it runs. Over the limit the answer is HTTP 429 with Retry-After and
 * `extensions.code` RATE_LIMIT_EXCEEDED. Calls without a valid key are charged to their client
 * address (their fields then fail with KEY_NOT_AUTHORIZED).
 */
export function useRateLimit(): Plugin<GraphQLContext> {
  const charge = async (context: GraphQLContext, document: DocumentNode, operationName?: string | null) => {
    // If the key cannot even be looked up (database down), the fields report that themselves.
    const meter = await context.meter().catch(() => null);
    if (!meter) return null;
    try {
      const operation = operationOf(document, operationName);
      await chargeCalls(meter, Math.max(1, operation ? rootFieldCount(operation, document) : 0));
      return null;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const retryAfter: Record<string, string> =
        error instanceof RateLimitedError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
      const status = error instanceof RateLimitedError ? 429 : 503;
      return {
        errors: [new GraphQLError(error.message, { extensions: { code: error.code, http: { status, headers: retryAfter } } })],
      };
    }
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refused = await charge(args.contextValue, args.document, args.operationName);
      if (refused) setResultAndStopExecution(refused);
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refused = await charge(args.contextValue, args.document, args.operationName);
      if (refused) setResultAndStopExecution(refused);
    },
  };
}
