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
 * size is a number, any other number a JsonNumberText. Throws SyntaxError for text that is not JSON,
 * and for an object that names a key twice.
 */
export function parseJson(text: string): unknown {
  return plainly(text) ?? parse(text, null, numberOf);
}

const numberOf = (source: string) => {
  const value = Number(source);
  return /^-?\d+$/.test(source) && Number.isSafeInteger(value) ? value : new JsonNumberText(source);
};

/** Every string literal of a JSON text, escapes included. */
const STRINGS = /"(?:[^"\\]|\\.)*"/g;
/** Outside strings, a digit followed by these is a number with a fraction or an exponent, or one of 16 digits or more. */
const NOT_A_SMALL_INTEGER = /\d[.eE]|\d{16}/;
/** Outside strings, an object's key (with the strings emptied, every key reads `"":`). */
const KEYS = /""\s*:/g;

/**
 * JSON.parse's reading of `text`, when it is the same as the grammar's, else undefined. It is the
 * same when every number is an integer of at most 15 digits (so safe) and no object names a key
 * twice (JSON.parse keeps the last, lossless-json refuses the text): a JSON.parse of a call's body
 * costs a tenth of lossless-json's, and the bodies of nearly every call qualify.
 */
function plainly(text: string): unknown {
  const bare = text.replace(STRINGS, '""');
  if (NOT_A_SMALL_INTEGER.test(bare)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return keysIn(value) === (bare.match(KEYS)?.length ?? 0) ? value : undefined;
}

/** The keys of every object in a parsed JSON value (without recursion: the value may be deep). */
function keysIn(value: unknown): number {
  let keys = 0;
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null) continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (!Array.isArray(next)) keys += children.length;
    for (const child of children) pending.push(child);
  }
  return keys;
}
