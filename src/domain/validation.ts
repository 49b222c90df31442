import { z } from "zod";
import { ValidationError, type ValidationCode } from "./errors.js";

/** The largest amount a JSON number carries exactly (2^53-1). */
export const MAX_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID that names nothing this service issues: what an identifier of another format reads as. */
const NOTHING = "00000000-0000-0000-0000-000000000000";

/**
 * An identifier as given (1 to 128 characters). Only this service's UUIDs name anything; any other
 * text is looked up as naming nothing, so it answers *_NOT_FOUND like an unknown UUID, never INVALID_*.
 */
export const id = z
  .string()
  .trim()
  .min(1, "is required")
  .max(128, "must be at most 128 characters")
  .transform((value) => (UUID.test(value) ? value : NOTHING));

/**
 * A positive amount of minimum units: a JSON integer or a string of decimal digits, up to 2^53-1.
 * The string is taken exactly as given: padding, signs, points and exponents are refused, not trimmed.
 */
export const amount = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const whole = typeof value === "number" ? Number.isSafeInteger(value) : /^\d{1,20}$/.test(value);
  const parsed = whole ? BigInt(value) : null;
  if (parsed === null || parsed <= 0n || parsed > MAX_AMOUNT) {
    ctx.addIssue({ code: "custom", message: "must be a whole number of minimum units from 1 to 2^53-1" });
    return z.NEVER;
  }
  return parsed;
});

/** A whole number given as a JSON integer or a string of digits. */
export const wholeNumber = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`));

/** Text of at most `max` characters. */
export const text = (max: number) => z.string().trim().min(1).max(max, `must be at most ${max} characters`);

export const ledgerId = z
  .string()
  .trim()
  .max(128)
  .regex(/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/i, "must be a dotted ledger identifier such as test.uplink");

export const asset = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9._-]{0,31}$/, "must be an asset code such as NZD");

export const httpUrl = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .pipe(z.url({ protocol: /^https?$/, message: "must be an http or https URL" }));

/**
 * Parses a domain operation's input. The first problem becomes a ValidationError whose CODE is the
 * one the contract gives for that parameter, so GraphQL and REST report the same thing.
 */
export function parseInput<S extends z.ZodObject>(
  schema: S,
  codes: Partial<Record<keyof z.input<S> & string, ValidationCode>>,
  input: unknown,
): z.output<S> {
  const codeOf = (field: string) => (codes as Record<string, ValidationCode | undefined>)[field] ?? "BAD_REQUEST";
  // PostgreSQL cannot take U+0000 in text (error 22021): it is the parameter's own INVALID_* code.
  const nul = fieldHoldingNul(input);
  if (nul !== null) throw new ValidationError(codeOf(nul), `${nul} must not contain U+0000`);
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  const code = codeOf(field);
  const message = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  throw new ValidationError(code, field ? `${field} ${message}` : message);
}

/** An optional parameter: absent, null or an empty string all mean "not given". */
export const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());

/** The top-level field of an input whose text (at any depth) holds U+0000, if any. */
function fieldHoldingNul(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const holdsNul = (value: unknown, depth: number): boolean =>
    typeof value === "string"
      ? value.includes("\u0000")
      : depth < 8 && typeof value === "object" && value !== null && Object.values(value).some((v) => holdsNul(v, depth + 1));
  return Object.entries(input).find(([key, value]) => key.includes("\u0000") || holdsNul(value, 0))?.[0] ?? null;
}
