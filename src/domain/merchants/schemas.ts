import { z } from "zod";
import { httpUrl, id, optional, text } from "../validation.js";

export const configurationInfoInput = z.object({ merchantId: id, clientId: optional(id) });
export type ConfigurationInfoInput = z.input<typeof configurationInfoInput>;
export const configurationInfoCodes = { merchantId: "INVALID_MERCHANT_ID", clientId: "INVALID_CLIENT_ID" } as const;

/** An ISO 4217 currency code that Intl knows, upper-cased. */
export const currency = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "must be a three-letter currency code such as NZD")
  .refine((code) => Intl.supportedValuesOf("currency").includes(code), "is not a known currency");

export const createMerchantInput = z.object({ name: text(200), currency: currency.default("NZD") });
export type CreateMerchantInput = z.input<typeof createMerchantInput>;
export const createMerchantCodes = { name: "BAD_REQUEST", currency: "INVALID_ASSET" } as const;

/** The addresses a merchant's requests may send their payers back to (each a prefix of a redirectUrl). */
export const allowRedirectsInput = z.object({ merchantId: id, urls: z.array(httpUrl).max(20, "at most 20 URLs") });
export type AllowRedirectsInput = z.input<typeof allowRedirectsInput>;
export const allowRedirectsCodes = { merchantId: "INVALID_MERCHANT_ID", urls: "INVALID_REDIRECT_URL" } as const;
