import { GraphQLError } from "graphql";
import { RateLimitedError, stackless, type DomainError } from "../domain/errors.js";
import { httpStatusOf } from "../transport/http-status.js";

/**
 * A DomainError that refuses a whole GraphQL call, as the error Yoga answers with: its CODE, the
 * code's HTTP status, and Retry-After for RATE_LIMIT_EXCEEDED.
 */
export function callRefusal(error: DomainError): GraphQLError {
  const headers: Record<string, string> =
    error instanceof RateLimitedError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return stackless(
    () =>
      new GraphQLError(error.message, {
        extensions: { code: error.code, http: { status: httpStatusOf(error.code), headers } },
      }),
  );
}
