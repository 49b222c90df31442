import { GraphQLError, OperationTypeNode, parse, type ParseOptions, type Source, type ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { rootFieldCount } from "./root-fields.js";

/**
 * A document is read up to this many tokens (names, punctuation, values): a longer one is refused
 * before its syntax tree is built. A 64 KiB body holds some 15,000 tokens, and a few dozen such
 * documents at once, parsed before being refused for their depth or cost, hold hundreds of MiB of
 * heap; the longest operation a dashboard sends (GraphiQL's introspection) has under 200.
 */
export const MAX_TOKENS = 1000;

/** At most this many aliases in one operation. */
export const MAX_ALIASES = 20;

/** At most this many root fields in one mutation operation (the contract's per-tenant bound). */
export const MAX_ROOT_MUTATION_FIELDS = 10;

/** Refuses, before execution, a mutation operation that selects too many root fields. */
const maxRootMutationFields: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    if (operation.operation !== OperationTypeNode.MUTATION) return;
    const count = rootFieldCount(operation, context.getDocument());
    if (count > MAX_ROOT_MUTATION_FIELDS) {
      context.reportError(
        new GraphQLError(`A mutation may select at most ${MAX_ROOT_MUTATION_FIELDS} root fields; this one selects ${count}.`, {
          nodes: [operation],
          extensions: { code: "BAD_REQUEST" },
        }),
      );
    }
  },
});

/**
 * graphql-armor's options (depth, cost, aliases) that refuse a document as the contract's
 * BAD_REQUEST: its own refusal carries no code and a misleading "Syntax Error:" prefix.
 */
export const refusedAsBadRequest = {
  onReject: [
    (_context: unknown, error: GraphQLError) => {
      throw new GraphQLError(error.message.replace(/^Syntax Error: /, ""), { extensions: { code: "BAD_REQUEST" } });
    },
  ],
};

export function useOperationBounds(): Plugin {
  return {
    onParse({ setParseFn }) {
      setParseFn((source: string | Source, options?: ParseOptions) => {
        try {
          return parse(source, { ...options, maxLexicalTokens: MAX_TOKENS });
        } catch (err) {
          if (err instanceof GraphQLError && /contains more th\w+ \d+ tokens/.test(err.message))
            throw new GraphQLError(`A document may hold at most ${MAX_TOKENS} tokens; this one holds more.`, {
              extensions: { code: "BAD_REQUEST" },
            });
          throw err;
        }
      });
    },
    onValidate({ addValidationRule }) {
      addValidationRule(maxRootMutationFields);
    },
  };
}
