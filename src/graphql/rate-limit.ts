import { GraphQLError, Kind, type DocumentNode, type SelectionSetNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError, RateLimitedError } from "../domain/errors.js";
import { chargeCalls } from "../transport/rate-limit.js";
import type { GraphQLContext } from "./context.js";

/**
 * Charges each operation to its API key's rate limit, one call per root field (each alias
 * counts), before it runs. Over the limit the answer is HTTP 429 with Retry-After and
 * `extensions.code` RATE_LIMIT_EXCEEDED. Calls without a valid key are not charged here: their
 * fields fail with KEY_NOT_AUTHORIZED.
 */
export function useRateLimit(): Plugin<GraphQLContext> {
  const charge = async (context: GraphQLContext, document: DocumentNode, operationName?: string | null) => {
    const key = await context.key().catch((error: unknown) => {
      if (error instanceof DomainError) return null;
      throw error;
    });
    if (!key) return null;
    try {
      await chargeCalls(key, Math.max(1, rootFieldCount(document, operationName)));
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

/** The number of root fields the operation selects, counting every alias and fragment. */
export function rootFieldCount(document: DocumentNode, operationName?: string | null): number {
  const operation = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return 0;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const count = (set: SelectionSetNode, seen: Set<string>): number =>
    set.selections.reduce((sum, selection) => {
      if (selection.kind === Kind.FIELD) return sum + (selection.name.value.startsWith("__") ? 0 : 1);
      if (selection.kind === Kind.INLINE_FRAGMENT) return sum + count(selection.selectionSet, seen);
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) return sum;
      return sum + count(fragment, new Set(seen).add(name));
    }, 0);
  return count(operation.selectionSet, new Set());
}
