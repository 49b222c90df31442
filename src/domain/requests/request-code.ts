import { randomInt } from "node:crypto";

// Crockford base32: no I, L, O or U, so a code read aloud or typed at a till is unambiguous.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A 12-character code (60 random bits) that a wallet scans or receives over NFC. */
export function newRequestCode(): string {
  return Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

// The contract's alphabet for short codes: no 0, 1, I, L or O to mistake for one another.
const SHORT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** `PR-7KX-2QD`: what a person reads aloud or types; 31^6 (about 887 million) codes, drawn at random. */
export function newShortCode(): string {
  const char = () => SHORT_ALPHABET[randomInt(SHORT_ALPHABET.length)];
  return `PR-${char()}${char()}${char()}-${char()}${char()}${char()}`;
}

/** A short code as a person may type it: any case, spaces or dashes anywhere, with or without `PR`. */
export function normalizeShortCode(typed: string): string | null {
  const compact = typed.toUpperCase().replace(/[\s-]/g, "");
  const letters = compact.length === 8 && compact.startsWith("PR") ? compact.slice(2) : compact;
  if (letters.length !== 6 || [...letters].some((c) => !SHORT_ALPHABET.includes(c))) return null;
  return `PR-${letters.slice(0, 3)}-${letters.slice(3)}`;
}
