import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.js";
import { createRequestCodes, createRequestInput } from "../../src/domain/requests/schemas.js";
import { refundTransactionCodes, refundTransactionInput } from "../../src/domain/transactions/schemas.js";
import { MAX_AMOUNT, parseInput } from "../../src/domain/validation.js";

const ID = "2f0c2a7e-5d4b-4a8f-9a51-0c3b1d2e4f60";

/** The amount as requests.create and transactions.refund read it, everything else being valid. */
const operations = {
  "requests.create": (amount: unknown) =>
    parseInput(createRequestInput, createRequestCodes, { merchantId: ID, asset: "NZD", amount }).amount,
  "transactions.refund": (amount: unknown) =>
    parseInput(refundTransactionInput, refundTransactionCodes, { transactionId: ID, amount }).amount,
};

/** The CODE an amount is refused with, or "accepted". */
function codeFor(parse: (amount: unknown) => bigint, amount: unknown): string {
  try {
    parse(amount);
    return "accepted";
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).code;
  }
}

describe.each(Object.entries(operations))("amount (%s)", (_operation, parse) => {
  it.each([
    [1, 1n],
    ["1", 1n],
    [300, 300n],
    [9007199254740991, MAX_AMOUNT],
    ["9007199254740991", MAX_AMOUNT],
  ])("accepts %j as %s minimum units", (amount, units) => {
    expect(parse(amount)).toBe(units);
  });

  it.each([
    ["zero", 0],
    ["zero string", "0"],
    ["negative", -5],
    ["negative string", "-5"],
    ["signed string", "+5"],
    ["fractional", 1.5],
    ["fractional string", "1.5"],
    ["decimal point", "300.0"],
    ["exponent", "1e3"],
    ["capital exponent", "3E2"],
    ["negative exponent", "30000e-2"],
    ["hexadecimal", "0x10"],
    ["huge number", 1e21],
    ["number above 2^53-1", 2 ** 53],
    ["string above 2^53-1", "9007199254740992"],
    ["twenty digits", "99999999999999999999"],
    ["not a number", Number.NaN],
    ["infinite", Number.POSITIVE_INFINITY],
    ["empty", ""],
    ["blank", "   "],
    ["leading space", " 5"],
    ["trailing newline", "5\n"],
    ["tab", "\t5"],
    ["trailing NUL", "5\u0000"],
    ["leading NUL", "\u00005"],
    ["digit group separator", "1_000"],
    ["non-ASCII digits", "\u0665"],
    ["fullwidth digit", "\uff15"],
    ["words", "ten"],
    ["missing", undefined],
    ["null", null],
    ["boolean", true],
    ["list", [5]],
  ])("refuses a %s amount with INVALID_AMOUNT", (_label, amount) => {
    expect(codeFor(parse, amount)).toBe("INVALID_AMOUNT");
  });

  it("reads every amount from 1 to 2^53-1 alike as a number and as a string of digits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_AMOUNT }), (units) => {
        expect(parse(Number(units))).toBe(units);
        expect(parse(String(units))).toBe(units);
      }),
    );
  });

  it("refuses digits with anything around them: padding, signs, points, exponents, separators", () => {
    const junk = fc.string({
      unit: fc.constantFrom(" ", "\t", "\n", "\u00a0", "\ufeff", "\u0000", "+", "-", ".", "e", "x", "_", ",", "0"),
    });
    const padded = fc
      .tuple(junk, fc.stringMatching(/^[1-9][0-9]{0,14}$/), junk)
      .map(([before, digits, after]) => before + digits + after)
      .filter((text) => !/^[0-9]+$/.test(text));
    // " 1" and "1 " are what this property found while the parser trimmed its input.
    fc.assert(
      fc.property(padded, (text) => codeFor(parse, text) === "INVALID_AMOUNT"),
      { examples: [[" 1"], ["1 "]] },
    );
  });
});
