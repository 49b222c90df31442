import { z } from "zod";
import { amount, asset, httpUrl, id, ledgerId, optional, text, wholeNumber } from "../validation.js";

export const DEFAULT_PAYMENT_EXPIRY_SECONDS = 120;

export const createRequestInput = z.object({
  merchantId: id,
  asset,
  amount,
  clientId: optional(id),
  externalReference: optional(text(128)),
  description: optional(text(1000)),
  notifyUrl: optional(httpUrl),
  redirectUrl: optional(httpUrl),
  paymentExpirySeconds: optional(wholeNumber(1, 86399)),
});
export type CreateRequestInput = z.input<typeof createRequestInput>;
export const createRequestCodes = {
  merchantId: "INVALID_MERCHANT_ID",
  asset: "INVALID_ASSET",
  amount: "INVALID_AMOUNT",
  clientId: "INVALID_CLIENT_ID",
  externalReference: "INVALID_REFERENCE",
  description: "INVALID_DESCRIPTION",
  notifyUrl: "INVALID_NOTIFY_URL",
  redirectUrl: "INVALID_REDIRECT_URL",
  paymentExpirySeconds: "INVALID_PAYMENT_EXPIRY_SECONDS",
} as const;

/**
 * A request is found by its id or, for wallets that scanned it, by its requestCode, or by the
 * shortCode a person typed.
 */
export const requestInfoInput = z
  .object({ requestId: optional(id), requestCode: optional(text(64)), shortCode: optional(text(64)) })
  .refine((input) => [input.requestId, input.requestCode, input.shortCode].filter((v) => v !== undefined).length === 1, {
    path: ["requestId"],
    error: "is required (or requestCode, or shortCode), one of them",
  });
export type RequestInfoInput = z.input<typeof requestInfoInput>;

export const payRequestInput = z.object({
  requestId: id,
  authorization: text(512),
  ledger: ledgerId,
});
export type PayRequestInput = z.input<typeof payRequestInput>;
export const payRequestCodes = {
  requestId: "INVALID_REQUEST_ID",
  authorization: "INVALID_AUTHORIZATION",
  ledger: "INVALID_LEDGER",
} as const;

export const cancelRequestInput = z.object({ requestId: id });
export type CancelRequestInput = z.input<typeof cancelRequestInput>;

export const requestIdCodes = {
  requestId: "INVALID_REQUEST_ID",
  requestCode: "INVALID_REQUEST_ID",
  shortCode: "INVALID_REQUEST_ID",
} as const;
