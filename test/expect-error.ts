import { expect } from "vitest";
import { DomainError, type ErrorCode } from "../src/domain/errors.js";

/** Awaits a call that must fail with a DomainError of this CODE. */
export async function expectCode(call: Promise<unknown>, code: ErrorCode): Promise<DomainError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  return error as DomainError;
}
