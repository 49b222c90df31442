import { GraphQLError, type DocumentNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError, RateLimitedError } from "../domain/errors.js";
import { httpStatusOf } from "../transport/http-status.js";
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
      const http = { status: httpStatusOf(error.code), headers: retryAfter };
      return { errors: [new GraphQLError(error.message, { extensions: { code: error.code, http } })] };
    }
  };
  // What execute and subscribe share of their hooks' payloads.
  type Payload = {
    args: { contextValue: GraphQLContext; document: DocumentNode; operationName?: string | null };
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  };
  const guard = async ({ args, setResultAndStopExecution }: Payload) => {
    const refused = await charge(args.contextValue, args.document, args.operationName);
    if (refused) setResultAndStopExecution(refused);
  };
  return { onExecute: guard, onSubscribe: guard };
}
