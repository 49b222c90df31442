/**
 * Expected failures. Every error carries a stable CODE from shared/spec/contract.md and a message
 * that is safe to show to the caller. Anything that is not a DomainError is a bug.
 */

export const validationCodes = [
  "INVALID_AMOUNT",
  "INVALID_ASSET",
  "INVALID_AUTHORIZATION",
  "INVALID_LEDGER",
  "INVALID_MERCHANT_ID",
  "INVALID_CLIENT_ID",
  "INVALID_DESCRIPTION",
  "INVALID_REFERENCE",
  "INVALID_NOTIFY_URL",
  "INVALID_TRANSACTION_ID",
  "INVALID_REQUEST_ID",
  "INVALID_PAYMENT_EXPIRY_SECONDS",
  "LEDGER_NOT_ENABLED",
  "BAD_REQUEST",
] as const;
export const notFoundCodes = ["REQUEST_NOT_FOUND", "TRANSACTION_NOT_FOUND", "MERCHANT_NOT_FOUND"] as const;
export const forbiddenCodes = [
  "FORBIDDEN",
  "MERCHANT_CONFIGURATION_NOT_FOUND",
  "NO_AVAILABLE_PAYMENT_OPTIONS",
  "INVALID_TRANSACTION_TYPE",
] as const;
export const stateConflictCodes = [
  "REQUEST_PAID",
  "REQUEST_CANCELLED",
  "REQUEST_EXPIRED",
  "ALREADY_REFUNDED",
  "REPEAT_REFERENCE",
] as const;
export const ledgerRefusalCodes = ["INSUFFICIENT_ASSET_BALANCE", "INACTIVE_ASSET", "PAYMENT_DECLINED"] as const;

export type ValidationCode = (typeof validationCodes)[number];
export type NotFoundCode = (typeof notFoundCodes)[number];
export type ForbiddenCode = (typeof forbiddenCodes)[number];
export type StateConflictCode = (typeof stateConflictCodes)[number];
export type LedgerRefusalCode = (typeof ledgerRefusalCodes)[number];

export const errorCodes = [
  ...validationCodes,
  ...notFoundCodes,
  ...forbiddenCodes,
  ...stateConflictCodes,
  ...ledgerRefusalCodes,
  "KEY_NOT_AUTHORIZED",
  "EXTERNAL_SERVICE_ERROR",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export abstract class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** graphql-js copies an original error's `extensions`, so GraphQL errors carry the CODE too. */
  get extensions(): { code: C } {
    return { code: this.code };
  }
}

/** A parameter is missing or malformed, or names something that cannot be used here. */
export class ValidationError extends DomainError<ValidationCode> {}

/** The thing does not exist, or is not visible to this key. */
export class NotFoundError extends DomainError<NotFoundCode> {}

/** The key may not do this. */
export class ForbiddenError extends DomainError<ForbiddenCode> {}

/** The request or transaction is in a state that does not allow this. */
export class StateConflictError extends DomainError<StateConflictCode> {}

/** The ledger refused the payment. */
export class LedgerRefusedError extends DomainError<LedgerRefusalCode> {}

/** No API key, or one that is unknown or revoked. */
export class UnauthenticatedError extends DomainError<"KEY_NOT_AUTHORIZED"> {
  constructor(message = "A valid X-Api-Key header is required.") {
    super("KEY_NOT_AUTHORIZED", message);
  }
}

/** A ledger or another dependency is unavailable; the call changed nothing and may be retried. */
export class ExternalServiceError extends DomainError<"EXTERNAL_SERVICE_ERROR"> {
  constructor(message = "A dependency is unavailable; try again later.") {
    super("EXTERNAL_SERVICE_ERROR", message);
  }
}
