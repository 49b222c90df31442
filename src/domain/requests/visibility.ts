import type { Actor } from "../context.js";

/**
 * What a key may read of a payment request. A merchant key reads all of its own requests. A payer
 * key (a wallet or terminal that scanned the requestCode) reads the payment-facing fields only:
 * id, requestCode, shortCode, payUrl (legacy qrCode), merchantId, status, denomination, payments,
 * description, expiresAt, createdAt, updatedAt, and of the purchase that paid it its amount, ledger,
 * time and transactionId. Never notifyUrl (it often carries a secret), redirectUrl, externalReference,
 * clientId, refunds, webhook events or the audit trail: REST omits those fields, GraphQL refuses
 * them with FORBIDDEN. The hosted pay page shows the payer's view too.
 */
export function readsMerchantFields(actor: Actor): boolean {
  return actor.kind === "merchant";
}

/** The payer's view of a request, by the names the GraphQL schema gives its fields. */
export const PAYER_FIELDS = {
  PaymentRequest: [
    "id",
    "requestCode",
    "shortCode",
    "payUrl",
    "merchantId",
    "status",
    "denomination",
    "payments",
    "description",
    "expiresAt",
    "createdAt",
    "updatedAt",
    "paidBy",
  ],
  Transaction: ["id", "amount", "ledger", "createdAt"],
} as const;
