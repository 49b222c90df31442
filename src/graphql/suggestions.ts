import { GraphQLError } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";

/** graphql-js's hints: ` Did you mean "a", "b", or "c"?`, ` Did you mean the enum value "X"?`, ` Did you mean to use an inline fragment on "T"?`. */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

function withoutSuggestion(error: GraphQLError): GraphQLError {
  const message = error.message.replace(SUGGESTION, "");
  if (message === error.message) return error;
  const { nodes, source, positions, path, originalError, extensions } = error;
  return new GraphQLError(message, { nodes, source, positions, path, originalError, extensions });
}

/**
 * Removes every "Did you mean …" from what a caller is told: those hints spell out the schema
 * (fields, arguments, types, enum values) that a server without introspection keeps to itself.
 * They come from validation and from coercing variables, so every result is read before it is sent.
 */
export function useNoSuggestions(): Plugin {
  return {
    onExecutionResult(payload) {
      const { result } = payload;
      if (!result || isAsyncIterable(result) || !result.errors?.length) return;
      payload.setResult({ ...result, errors: result.errors.map((error) => withoutSuggestion(error)) });
    },
  };
}
