import {
  isDomainError,
  type DomainError,
  forbiddenCodes,
  ForbiddenError,
  ledgerRefusalCodes,
  LedgerRefusedError,
  notFoundCodes,
  NotFoundError,
  stateConflictCodes,
  StateConflictError,
  validationCodes,
  ValidationError,
  type ErrorCode,
} from "../domain/errors.js";

/**
 * The typed refusals an idempotency key keeps as a write's outcome (transport/idempotency.ts): the
 * input, the state of the request or the ledger said no, and a retry would be told the same. Each
 * type with the codes it is given; every code belongs to one type, so a kept code names its type.
 * Outages, rate limits and refused API keys are not here: a retry may get past them.
 */
const keptTypes = [
  [ValidationError, validationCodes],
  [NotFoundError, notFoundCodes],
  [ForbiddenError, forbiddenCodes],
  [StateConflictError, stateConflictCodes],
  [LedgerRefusedError, ledgerRefusalCodes],
] as const;

const typeOfCode = new Map<ErrorCode, new (code: never, message: string) => DomainError>(
  keptTypes.flatMap(([type, codes]) => codes.map((code) => [code, type] as const)),
);

/** A kept refusal as stored: its code alone names its type, so renaming an error class changes no stored outcome. */
export interface KeptRefusal {
  code: ErrorCode;
  message: string;
}

/** Whether `error` is an outcome an idempotency key keeps, rather than one a retry may get past. */
export const isKeptRefusal = (error: unknown): error is DomainError =>
  isDomainError(error) && typeOfCode.get(error.code) === error.constructor;

/** Whether a stored value is a kept refusal whose code this version knows. */
export const isStoredRefusal = (value: unknown): value is KeptRefusal =>
  typeof value === "object" &&
  value !== null &&
  typeOfCode.has((value as KeptRefusal).code) &&
  typeof (value as KeptRefusal).message === "string";

/** The typed error of a kept refusal, from its code. */
export function rebuiltRefusal({ code, message }: KeptRefusal): DomainError {
  const ErrorType = typeOfCode.get(code);
  if (!ErrorType) throw new Error(`a kept idempotent outcome names the code ${code}, which no kept refusal has`);
  return new ErrorType(code as never, message);
}
