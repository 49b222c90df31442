import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { domainErrorOf } from "../../domain/errors.js";
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
 * The contract's error body and status for a failure, as domainErrorOf reads it (an unreachable
 * database is EXTERNAL_SERVICE_ERROR, 503, retry later); anything else is INTERNAL_ERROR.
 */
export function restError(error: unknown): ErrorBody {
  const failure = domainErrorOf(error);
  if (failure) return errorResponseBody(httpStatusOf(failure.code), failure.code, failure.message);
  return errorResponseBody(500, "INTERNAL_ERROR", "Unexpected error.");
}
