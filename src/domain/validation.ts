import { createHash } from "node:crypto";
import { z } from "zod";
import { ValidationError, type ValidationCode } from "./errors.js";

/** The largest amount a JSON number carries exactly (2^53-1). */
export const MAX_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What an identifier of another format reads as: a UUID that names nothing, since its version digit
 * is 0 and this service issues version 4. Each text reads as a UUID of its own (a hash of it), so two
 * different unknown identifiers stay two different inputs, as an Idempotency-Key compares them.
 */
function namingNothing(value: string): string {
  const hex = createHash("sha256").update(value).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * An identifier as given (1 to 128 characters). Only this service's UUIDs name anything; any other
 * text is looked up as naming nothing, so it answers *_NOT_FOUND like an unknown UUID, never INVALID_*.
 */
export const id = z
  .string()
  .trim()
  .min(1, "is required")
  .max(128, "must be at most 128 characters")
  .transform((value) => (UUID.test(value) ? value : namingNothing(value)));

const AMOUNT_RULE = "must be a whole number of minimum units from 1 to 2^53-1";

/**
 * A positive amount of minimum units: a JSON integer or a string of decimal digits, up to 2^53-1.
 * The string is taken exactly as given: padding, signs, points and exponents are refused, not trimmed.
 */
export const amount = z.union([z.number(), z.string()], { error: AMOUNT_RULE }).transform((value, ctx) => {
  const whole = typeof value === "number" ? Number.isSafeInteger(value) : /^\d{1,20}$/.test(value);
  const parsed = whole ? BigInt(value) : null;
  if (parsed === null || parsed <= 0n || parsed > MAX_AMOUNT) {
    ctx.addIssue({ code: "custom", message: AMOUNT_RULE });
    return z.NEVER;
  }
  return parsed;
});

/** A whole number given as a JSON integer or a string of digits, taken exactly as given. */
export const wholeNumber = (min: number, max: number) => {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,20}$/)
          .transform(Number),
      ],
      { error: rule },
    )
    .pipe(z.number().int(rule).min(min, rule).max(max, rule));
};

/** Text of at most `max` characters. */
export const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

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
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http or https URL" }));

/**
 * Parses a domain operation's input. The first problem becomes a ValidationError whose CODE is the
 * one the contract gives for that parameter, so GraphQL and REST report the same thing.
 */
export function parseInput<S extends z.ZodObject>(
  schema: S,
  codes: Partial<Record<keyof z.input<S> & string, ValidationCode>>,
  input: unknown,
): z.output<S> {
  const checked = checkInput(schema, input);
  if (checked.success) return checked.data;
  const code = (codes as Record<string, ValidationCode | undefined>)[checked.field] ?? "BAD_REQUEST";
  throw new ValidationError(code, checked.field ? `${shown(checked.field)} ${checked.problem}` : checked.problem);
}

/**
 * An input as its operation reads it, or the parameter that stops it and why. Text anywhere in it
 * (keys too) must be well-formed: U+0000 and unpaired UTF-16 surrogates are refused here, before
 * PostgreSQL, which takes neither (error 22021, or a silent U+FFFD).
 */
export function checkInput<S extends z.ZodObject>(
  schema: S,
  input: unknown,
): { success: true; data: z.output<S> } | { success: false; field: string; problem: string } {
  const illFormed = fieldWithIllFormedText(input);
  if (illFormed !== null)
    return { success: false, field: illFormed, problem: "must not contain U+0000 or an unpaired UTF-16 surrogate" };
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return { success: true, data: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  const given = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  const problem =
    issue.code !== "invalid_type"
      ? issue.message
      : given === undefined || given === null
        ? "is required"
        : issue.expected === "string"
          ? "must be a JSON string"
          : `must be of type ${issue.expected}`;
  return { success: false, field, problem };
}

/** An optional parameter: absent, null or text that is empty once trimmed all mean "not given". */
export const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
    schema.optional(),
  );

/** U+0000, or a surrogate code unit that is not half of a pair. */
// eslint-disable-next-line no-control-regex -- U+0000 is the character this pattern exists to find
const ILL_FORMED = /[\u0000\p{Cs}]/u;

/** Whether text is free of U+0000 and unpaired surrogates: text PostgreSQL can take as it is. */
export const isWellFormedText = (text: string): boolean => !ILL_FORMED.test(text);

/**
 * A parameter's name as an error message shows it: JSON-quoted (so in plain ASCII escapes) when the
 * name itself is ill-formed, since the message is stored and logged as text PostgreSQL must take.
 */
const shown = (field: string) => (ILL_FORMED.test(field) ? JSON.stringify(field) : field);

/**
 * The top-level field of an input whose text (at any depth, keys included) is ill-formed, if any.
 * Walked without recursion: a transport bounds how deep its input nests, this walk does not.
 */
function fieldWithIllFormedText(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const illFormed = (value: unknown): boolean => {
    const stack = [value];
    while (stack.length > 0) {
      const current = stack.pop();
      if (typeof current === "string") {
        if (ILL_FORMED.test(current)) return true;
      } else if (typeof current === "object" && current !== null) {
        for (const [key, child] of Object.entries(current)) {
          if (ILL_FORMED.test(key)) return true;
          stack.push(child);
        }
      }
    }
    return false;
  };
  return Object.entries(input).find(([key, value]) => ILL_FORMED.test(key) || illFormed(value))?.[0] ?? null;
}
