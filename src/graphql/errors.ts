import {
  DomainError,
  ExternalServiceError,
  ForbiddenError,
  RateLimitedError,
  LedgerRefusedError,
  NotFoundError,
  StateConflictError,
  UnauthenticatedError,
  ValidationError,
} from "../domain/errors.js";
import { builder } from "./builder.js";
import { ErrorCodeEnum } from "./enums.js";

const ErrorInterface = builder.interfaceRef<DomainError>("Error").implement({
  description: "An expected failure. Nothing was changed.",
  fields: (t) => ({
    code: t.field({ type: ErrorCodeEnum, description: "Stable error code.", resolve: (error) => error.code }),
    message: t.exposeString("message", { description: "What went wrong, safe to show to a person." }),
  }),
});

/** An error class as a GraphQL type: Pothos reads the type's shape from the class, whatever its constructor takes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos infers the type's shape from this class type; with never[] parameters it infers none
function errorType(errorClass: new (...args: any[]) => DomainError, name: string, description: string) {
  builder.objectType(errorClass, { name, description, interfaces: [ErrorInterface] as const });
}

errorType(ValidationError, "ValidationError", "A parameter is missing or malformed.");
errorType(NotFoundError, "NotFoundError", "No such thing is visible to this key.");
errorType(ForbiddenError, "ForbiddenError", "The key may not do this, or the merchant's configuration does not allow it.");
errorType(StateConflictError, "StateConflictError", "The request or transaction is in a state that does not allow this.");
errorType(LedgerRefusedError, "LedgerRefusedError", "The ledger refused the payment.");
errorType(UnauthenticatedError, "AuthenticationError", "The X-Api-Key header is missing, unknown or revoked.");
errorType(ExternalServiceError, "ExternalServiceError", "A ledger or dependency is unavailable; retry later.");
errorType(
  RateLimitedError,
  "RateLimitedError",
  "The key made too many requests this minute, or repeated a limited operation too soon.",
);
builder.objectField(RateLimitedError, "retryAfterSeconds", (t) =>
  t.exposeInt("retryAfterSeconds", { description: "When to try again, in seconds (REST's Retry-After)." }),
);
