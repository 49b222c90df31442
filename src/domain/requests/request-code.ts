import { randomInt } from "node:crypto";

// Crockford base32: no I, L, O or U, so a code read aloud or typed at a till is unambiguous.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A 12-character code (60 random bits) that a wallet scans or receives over NFC. */
export function newRequestCode(): string {
  return Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}
