import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { isDatabaseUnavailable } from "../../connection-errors.js";
import { ExternalServiceError, isDomainError } from "../../domain/errors.js";
import { httpStatusOf } from "../../transport/http-status.js";

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
  if (!isDomainError(error) && isDatabaseUnavailable(error)) return restError(new ExternalServiceError());
  if (isDomainError(error)) return errorResponseBody(httpStatusOf(error.code), error.code, error.message);
  return errorResponseBody(500, "INTERNAL_ERROR", "Unexpected error.");
}
