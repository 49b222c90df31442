/**
 * JSON bodies keep the contract's number grammar (transport/json.ts): every text reads as
 * lossless-json reads it with the grammar (a safe integer literal is a number, any other number a
 * JsonNumberText, an object naming a key twice is refused), whether it takes JSON.parse's shortcut
 * or not.
 */
import fc from "fast-check";
import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { JsonNumberText, parseJson } from "../../src/transport/json.js";

/** The grammar, read by lossless-json alone: what every text must read as. */
const byTheGrammar = (text: string) =>
  parse(text, null, (source) =>
    /^-?\d+$/.test(source) && Number.isSafeInteger(Number(source)) ? Number(source) : new JsonNumberText(source),
  );

const outcome = (read: (text: string) => unknown, text: string) => {
  try {
    return { value: read(text) };
  } catch (error) {
    return { refused: error instanceof SyntaxError };
  }
};

const NUMBERS = [
  "0",
  "-0",
  "7",
  "-15",
  "1e3",
  "1E+2",
  "300.0",
  "0.5",
  "-1.5",
  "123456789012345",
  "9007199254740991",
  "9007199254740992",
  "-9007199254740993",
  "12345678901234567890",
];
/** Text that looks like numbers, escapes and keys, inside strings. */
const TRICKY = fc.string({ unit: fc.constantFrom('"', "\\", "1", "9", "e", "E", ".", ":", " ", "a", "é") });
const space = fc.constantFrom("", " ", "\n\t ");

/** A JSON text of numbers written every way, strings, and objects that may repeat a key. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...NUMBERS),
    fc.integer().map(String),
    TRICKY.map((text) => JSON.stringify(text)),
    fc.constantFrom("true", "false", "null"),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(fc.constantFrom("a", "b", "e1", "1.5", "__proto__", 'q"'), space, tie("value")), { maxLength: 4 })
      .map((entries) => `{${entries.map(([key, gap, value]) => `${JSON.stringify(key)}${gap}:${gap}${value}`).join(",")}}`),
  ),
})).value;

describe("a JSON body", () => {
  it("reads as the grammar reads it, numbers, repeated keys and strings alike", () => {
    fc.assert(
      fc.property(jsonText, space, (text, gap) => {
        expect(outcome(parseJson, gap + text + gap)).toStrictEqual(outcome(byTheGrammar, gap + text + gap));
      }),
      { numRuns: 2000 },
    );
  });

  it("that is cut short, or not JSON at all, is refused as the grammar refuses it", () => {
    fc.assert(
      fc.property(jsonText, fc.nat(), (text, cut) => {
        const broken = text.slice(0, cut % (text.length + 1));
        expect(outcome(parseJson, broken)).toStrictEqual(outcome(byTheGrammar, broken));
      }),
      { numRuns: 1000 },
    );
    for (const text of ["", "{", '{"a":1,}', "[1,]", "01", '{"a":1}x', "NaN", "'a'"])
      expect({ text, ...outcome(parseJson, text) }).toStrictEqual({ text, refused: true });
  });

  it("keeps numbers outside the grammar as written, and refuses a key named twice", () => {
    expect(parseJson('{"amount": 1e3, "fee": 300.0, "id": "6e5.1", "n": 9007199254740993, "k": 42}')).toStrictEqual({
      amount: new JsonNumberText("1e3"),
      fee: new JsonNumberText("300.0"),
      id: "6e5.1",
      n: new JsonNumberText("9007199254740993"),
      k: 42,
    });
    expect(() => parseJson('{"amount": 300, "amount": 400}')).toThrow(SyntaxError);
    expect(() => parseJson('{"a": {"b": 1, "b" : 2}}')).toThrow(SyntaxError);
    // The same key in two objects is no repeat.
    expect(parseJson('[{"a": 1}, {"a": 2}]')).toStrictEqual([{ a: 1 }, { a: 2 }]);
  });
});
