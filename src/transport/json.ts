import { parse } from "lossless-json";

/**
 * A JSON number outside the contract's grammar (1e3, 300.0, 0.5, -1.5, 2^53 and beyond), kept as
 * written. It is neither a number nor a string, so no parameter accepts it: an amount answers
 * INVALID_AMOUNT and a text parameter its own INVALID_* code, rather than the number being rounded
 * into a valid amount or read as the text it was written as.
 */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

/**
 * Parses a JSON body keeping the contract's number grammar: an integer literal within 2^53-1 in
 * size is a number, any other number a JsonNumberText. Throws SyntaxError for text that is not JSON.
 */
export function parseJson(text: string): unknown {
  return parse(text, null, (source) => {
    const value = Number(source);
    return /^-?\d+$/.test(source) && Number.isSafeInteger(value) ? value : new JsonNumberText(source);
  });
}
