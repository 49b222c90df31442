/**
 * Expected failures. Every error carries a stable CODE (docs/api.md lists them) and a message
 * that is safe to show to the caller. Anything that is not a DomainError is a bug, except a
 * database that cannot serve calls, which domainErrorOf answers as EXTERNAL_SERVICE_ERROR.
 */
import { isDatabaseUnavailable } from "../connection-errors.js";

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
  "INVALID_REDIRECT_URL",
  "INVALID_TRANSACTION_ID",
  "INVALID_REQUEST_ID",
  "INVALID_PAYMENT_EXPIRY_SECONDS",
  "INVALID_ENDPOINT_URL",
  "INVALID_EVENT_TYPE",
  "INVALID_LOGO",
  "INVALID_COLOR",
  "LEDGER_NOT_ENABLED",
  "BAD_REQUEST",
] as const;
export const notFoundCodes = [
  "REQUEST_NOT_FOUND",
  "TRANSACTION_NOT_FOUND",
  "MERCHANT_NOT_FOUND",
  "WEBHOOK_EVENT_NOT_FOUND",
  "WEBHOOK_ENDPOINT_NOT_FOUND",
  "CONSOLE_SESSION_NOT_FOUND",
] as const;
export const forbiddenCodes = [
  "FORBIDDEN",
  "MERCHANT_CONFIGURATION_NOT_FOUND",
  "NO_AVAILABLE_PAYMENT_OPTIONS",
  "INVALID_TRANSACTION_TYPE",
  "WEBHOOK_ENDPOINT_LIMIT_REACHED",
] as const;
export const stateConflictCodes = [
  "REQUEST_PAID",
  "REQUEST_CANCELLED",
  "REQUEST_EXPIRED",
  "ALREADY_REFUNDED",
  "REPEAT_REFERENCE",
  "IDEMPOTENCY_KEY_REUSED",
  "IDEMPOTENCY_KEY_IN_USE",
  "WEBHOOK_ENDPOINT_DISABLED",
  "WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE",
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
  "RATE_LIMIT_EXCEEDED",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** When each code is given; shown in API documentation. */
export const errorCodeDescriptions: Record<ErrorCode, string> = {
  INVALID_AMOUNT: "amount is missing or not a whole number from 1 to 2^53-1, or exceeds what remains refundable",
  INVALID_ASSET: "asset is missing or malformed",
  INVALID_AUTHORIZATION: "authorization is missing or malformed, or differs from paymentAuthorization",
  INVALID_LEDGER: "ledger is missing or malformed, or no such ledger exists",
  INVALID_MERCHANT_ID: "merchantId is missing or malformed",
  INVALID_CLIENT_ID: "clientId is malformed",
  INVALID_DESCRIPTION: "description is too long",
  INVALID_REFERENCE: "externalReference is too long",
  INVALID_NOTIFY_URL: "notifyUrl is not an http or https URL",
  INVALID_REDIRECT_URL: "redirectUrl is not an http or https URL that starts with one of the merchant's allowed redirect URLs",
  INVALID_TRANSACTION_ID: "transactionId is missing or malformed",
  INVALID_REQUEST_ID: "requestId (or requestCode, or shortCode) is missing or malformed",
  INVALID_PAYMENT_EXPIRY_SECONDS: "paymentExpirySeconds is not a whole number from 1 to 86399",
  INVALID_ENDPOINT_URL:
    "url is not an http or https URL, or names a loopback, private, link-local or multicast address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS)",
  INVALID_EVENT_TYPE: "an event type is not one of payment.completed, refund.completed, request.cancelled, request.expired",
  INVALID_LOGO:
    "a logo is not a data: URL of a PNG, JPEG or WebP image of at most 64 KB whose bytes are of its type (SVG is refused)",
  INVALID_COLOR: "an accent colour is not #rrggbb, or its contrast against white is below 4.5:1 (WCAG AA)",
  LEDGER_NOT_ENABLED: "the ledger is not one of the request's payment options",
  BAD_REQUEST: "other malformed input",
  REQUEST_NOT_FOUND: "no such request is visible to this key",
  TRANSACTION_NOT_FOUND: "no such transaction is visible to this key",
  MERCHANT_NOT_FOUND: "no such merchant is visible to this key",
  WEBHOOK_EVENT_NOT_FOUND: "no such webhook event is visible to this key",
  WEBHOOK_ENDPOINT_NOT_FOUND: "no such webhook endpoint is visible to this key",
  CONSOLE_SESSION_NOT_FOUND: "no such live console session is visible to this key",
  WEBHOOK_ENDPOINT_LIMIT_REACHED: "the merchant has as many webhook endpoints as it may (16)",
  WEBHOOK_ENDPOINT_DISABLED: "the endpoint is disabled: enable it before recovering its deliveries",
  WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE: "a test event is never sent again: send another with webhookEndpointPing",
  FORBIDDEN: "the key may not do this",
  MERCHANT_CONFIGURATION_NOT_FOUND: "the clientId is not this merchant's",
  NO_AVAILABLE_PAYMENT_OPTIONS: "no configuration item can be paid in this asset",
  INVALID_TRANSACTION_TYPE: "only a PURCHASE can be refunded",
  REQUEST_PAID: "the request has already been paid",
  REQUEST_CANCELLED: "the request has been cancelled",
  REQUEST_EXPIRED: "the request has expired",
  ALREADY_REFUNDED: "the purchase was already refunded without an externalReference",
  REPEAT_REFERENCE: "the externalReference was already used with different parameters",
  IDEMPOTENCY_KEY_REUSED: "the Idempotency-Key was already used with different parameters",
  IDEMPOTENCY_KEY_IN_USE: "a call with this Idempotency-Key is still running; retry shortly",
  INSUFFICIENT_ASSET_BALANCE: "the ledger refused: the payer's balance is too low",
  INACTIVE_ASSET: "the ledger refused: the payer's account is unknown or inactive",
  PAYMENT_DECLINED: "the ledger declined the payment",
  KEY_NOT_AUTHORIZED: "the X-Api-Key header is missing, unknown or revoked",
  EXTERNAL_SERVICE_ERROR: "a ledger or dependency is unavailable; nothing changed, retry later",
  RATE_LIMIT_EXCEEDED: "the key made too many requests this minute; retry after Retry-After seconds",
};

export abstract class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** graphql-js copies an original error's `extensions`, so GraphQL errors carry the CODE too. */
  get extensions(): { code: C } {
    return { code: this.code };
  }
}

/** `instanceof DomainError` narrows to `DomainError<any>`, whose code is `any`; this keeps it an ErrorCode. */
export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** What every caller is told when the database cannot serve calls. */
export const DATABASE_UNAVAILABLE = "The database is unavailable; try again later.";

/**
 * A failure as every transport answers it (REST, GraphQL, the pay page, the operator CLI): a
 * DomainError as it is; a database that cannot serve calls (down, unreachable, refusing the
 * configured database or role, out of connections: isDatabaseUnavailable) as EXTERNAL_SERVICE_ERROR,
 * with the driver's error as its cause; undefined for anything else, which is a bug.
 */
export function domainErrorOf(error: unknown): DomainError | undefined {
  if (isDomainError(error)) return error;
  if (isDatabaseUnavailable(error)) return new ExternalServiceError(DATABASE_UNAVAILABLE, { cause: error });
  return undefined;
}

/**
 * An error made without capturing the stack: for refusals a caller may send by the thousand (a
 * throttled flood), which are answers, not faults, and whose stack no one reads. Capturing one cost
 * a sixth of the API's CPU under such a flood.
 */
export function stackless<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
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
  constructor(message = "A dependency is unavailable; try again later.", options?: ErrorOptions) {
    super("EXTERNAL_SERVICE_ERROR", message, options);
  }
}

/** The key used up its requests for this minute, or holds as many open subscriptions as it may. */
export class RateLimitedError extends DomainError<"RATE_LIMIT_EXCEEDED"> {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many requests; retry in ${retryAfterSeconds} s.`,
  ) {
    super("RATE_LIMIT_EXCEEDED", message);
  }
}
