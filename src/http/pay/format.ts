import type { DisplayUnits } from "../../domain/requests/pay-page.js";

/** An amount in minimum units shown in the merchant's display units: 300n, NZD with 2 digits → "NZD 3.00". */
export function formatAmount(amount: bigint, { label, fractionalDigits }: DisplayUnits): string {
  const digits = (amount < 0n ? -amount : amount).toString().padStart(fractionalDigits + 1, "0");
  const whole = digits.slice(0, digits.length - fractionalDigits);
  const fraction = fractionalDigits > 0 ? `.${digits.slice(-fractionalDigits)}` : "";
  return `${label} ${amount < 0n ? "-" : ""}${whole.replace(/\B(?=(\d{3})+$)/g, ",")}${fraction}`;
}

/** Text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
