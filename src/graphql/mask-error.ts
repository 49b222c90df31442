import { GraphQLError } from "graphql";
import { maskError, type MaskError } from "graphql-yoga";
import { DomainError, domainErrorOf } from "../domain/errors.js";

/**
 * What a GraphQL client is told of a failure: a DomainError as it is (its CODE in extensions), a lost
 * database as domainErrorOf answers it (EXTERNAL_SERVICE_ERROR), and anything else masked by Yoga
 * with the contract's code for the unexpected, INTERNAL_ERROR (Yoga's own is INTERNAL_SERVER_ERROR),
 * the same as on REST.
 */
export const maskUnexpectedError: MaskError = (error, message, isDev) => {
  // Duck-typed: graphql's CJS and ESM builds can both be loaded, so instanceof GraphQLError is unreliable.
  const original = (error as { originalError?: unknown }).originalError ?? error;
  if (original instanceof DomainError) return error as Error;
  const unavailable = domainErrorOf(original);
  if (unavailable) return new GraphQLError(unavailable.message, { extensions: unavailable.extensions });
  const masked = maskError(error, message, isDev);
  // Yoga returns a GraphQL error of its own (parse, validation, limits) unchanged.
  if (masked !== error && (masked as GraphQLError).extensions?.["code"] === "INTERNAL_SERVER_ERROR")
    (masked as GraphQLError).extensions["code"] = "INTERNAL_ERROR";
  return masked;
};
