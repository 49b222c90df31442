import { randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

import type { LedgerApproval } from "./connector.js";

/** A sandbox ledger's approval: a fresh auth code, response 00, settled at once. */
export function sandboxApproval(paymentType: string, now: Date, payerReference: string | null): LedgerApproval {
  return { authCode: newAuthCode(), responseCode: "00", paymentType, settlementDate: now, payerReference };
}

/** A six-character authorization code, as a card network would return. */
export function newAuthCode(): string {
  return Array.from({ length: 6 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}
