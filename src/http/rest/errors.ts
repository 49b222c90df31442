import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { isDatabaseUnavailable } from "../../db.js";
import { DomainError, ExternalServiceError, type ErrorCode } from "../../domain/errors.js";

/** HTTP status of each CODE, as the contract's error table gives it. */
const statusByCode: Record<ErrorCode, number> = {
  KEY_NOT_AUTHORIZED: 401,
  FORBIDDEN: 403,
  REQUEST_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  MERCHANT_NOT_FOUND: 404,
  WEBHOOK_EVENT_NOT_FOUND: 404,
  INVALID_AMOUNT: 400,
  INVALID_ASSET: 400,
  INVALID_AUTHORIZATION: 400,
  INVALID_LEDGER: 400,
  INVALID_MERCHANT_ID: 400,
  INVALID_CLIENT_ID: 400,
  INVALID_DESCRIPTION: 400,
  INVALID_REFERENCE: 400,
  INVALID_NOTIFY_URL: 400,
  INVALID_TRANSACTION_ID: 400,
  INVALID_REQUEST_ID: 400,
  INVALID_PAYMENT_EXPIRY_SECONDS: 400,
  BAD_REQUEST: 400,
  REQUEST_PAID: 403,
  REQUEST_CANCELLED: 403,
  REQUEST_EXPIRED: 403,
  LEDGER_NOT_ENABLED: 400,
  MERCHANT_CONFIGURATION_NOT_FOUND: 403,
  NO_AVAILABLE_PAYMENT_OPTIONS: 403,
  INSUFFICIENT_ASSET_BALANCE: 403,
  INACTIVE_ASSET: 403,
  PAYMENT_DECLINED: 403,
  ALREADY_REFUNDED: 400,
  REPEAT_REFERENCE: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  INVALID_TRANSACTION_TYPE: 403,
  EXTERNAL_SERVICE_ERROR: 503,
  RATE_LIMIT_EXCEEDED: 429,
};

export const errorBody = z.object({
  statusCode: z.number().int(),
  error: z.string().describe("HTTP reason phrase"),
  message: z.string().describe("Stable error CODE"),
  reason: z.string().describe("Human explanation"),
});
export type ErrorBody = z.infer<typeof errorBody>;

export function errorResponseBody(statusCode: number, code: string, reason: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? "Error", message: code, reason };
}

/**
 * The contract's error body and status for a failure. An unreachable database is
 * EXTERNAL_SERVICE_ERROR (503, retry later); anything else not a DomainError is INTERNAL_ERROR.
 */
export function restError(error: unknown): ErrorBody {
  if (!(error instanceof DomainError) && isDatabaseUnavailable(error)) return restError(new ExternalServiceError());
  if (error instanceof DomainError) {
    const code: ErrorCode = error.code;
    return errorResponseBody(statusByCode[code], code, error.message);
  }
  return errorResponseBody(500, "INTERNAL_ERROR", "Unexpected error.");
}
