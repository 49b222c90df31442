/**
 * Amounts as the API counts them (whole minor units of an asset) and as a merchant reads and types
 * them (in its display units: the currency's label and its fractional digits, from the merchant's
 * configuration).
 */
import { language } from "./messages.js";

export interface Units {
  label: string;
  fractionalDigits: number;
}

/** 1250 in NZD with 2 digits → "NZD 12.50" (grouped as the console's language groups). */
export function formatAmount(minor: number, { label, fractionalDigits }: Units): string {
  const number = new Intl.NumberFormat(language, {
    minimumFractionDigits: fractionalDigits,
    maximumFractionDigits: fractionalDigits,
  }).format(minor / 10 ** fractionalDigits);
  return `${label} ${number}`;
}

/**
 * What a merchant typed ("12.50", "12,5", "12") in minor units (1250), or null when it is not an
 * amount with at most `fractionalDigits` digits after its one separator, or not above zero. Done on
 * the digits, never through a float.
 */
export function parseAmount(text: string, fractionalDigits: number): number | null {
  const match = /^(\d{1,15})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = "", fraction = ""] = match;
  if (fraction.length > fractionalDigits) return null;
  const minor = Number(whole + fraction.padEnd(fractionalDigits, "0"));
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}

/** An amount in minor units as it is typed back into a field: 750 → "7.50". */
export function amountText(minor: number, fractionalDigits: number): string {
  const digits = String(minor).padStart(fractionalDigits + 1, "0");
  return fractionalDigits ? `${digits.slice(0, -fractionalDigits)}.${digits.slice(-fractionalDigits)}` : digits;
}
