import { describe, expect, it } from "vitest";
import {
  errorCodes,
  ExternalServiceError,
  forbiddenCodes,
  ForbiddenError,
  ledgerRefusalCodes,
  LedgerRefusedError,
  notFoundCodes,
  NotFoundError,
  RateLimitedError,
  stateConflictCodes,
  StateConflictError,
  UnauthenticatedError,
  validationCodes,
  ValidationError,
} from "../../src/domain/errors.js";
import { isKeptRefusal, isStoredRefusal, rebuiltRefusal } from "../../src/transport/kept-refusals.js";

describe("typed errors kept by an idempotency key", () => {
  const kept = [
    [ValidationError, validationCodes],
    [NotFoundError, notFoundCodes],
    [ForbiddenError, forbiddenCodes],
    [StateConflictError, stateConflictCodes],
    [LedgerRefusedError, ledgerRefusalCodes],
  ] as const;

  it.each(kept.flatMap(([type, codes]) => codes.map((code) => [code, type] as const)))(
    "%s comes back as the error type that gives it",
    (code, type) => {
      const error = rebuiltRefusal({ code, message: "as first told" });
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ code, message: "as first told" });
      expect(isKeptRefusal(error)).toBe(true);
      expect(isStoredRefusal({ code, message: "as first told" })).toBe(true);
    },
  );

  it("keeps no outage, refused key or rate limit: a retry may get past those", () => {
    for (const error of [new ExternalServiceError(), new UnauthenticatedError(), new RateLimitedError(30)])
      expect(isKeptRefusal(error)).toBe(false);
    expect(isKeptRefusal(new Error("a bug"))).toBe(false);
    for (const code of errorCodes.filter((code) => !kept.some(([, codes]) => (codes as readonly string[]).includes(code)))) {
      expect(isStoredRefusal({ code, message: "" })).toBe(false);
      expect(() => rebuiltRefusal({ code, message: "" })).toThrow(/no kept refusal/);
    }
  });
});
