import { parse } from "lossless-json";

/**
 * Parses a JSON body keeping the contract's number grammar: an integer literal within 2^53-1 in
 * size is a number; any other number (1e3, 300.0, 0.5, 4503599627370496.5, 2^53 and beyond) is
 * handed on as its source text, which every numeric parameter then refuses as a string that is not
 * a whole number (INVALID_AMOUNT and friends), instead of JSON.parse rounding it into a valid one.
 * Throws SyntaxError for text that is not JSON.
 */
export function parseJson(text: string): unknown {
  return parse(text, null, (source) => {
    const value = Number(source);
    return /^-?\d+$/.test(source) && Number.isSafeInteger(value) ? value : source;
  });
}
