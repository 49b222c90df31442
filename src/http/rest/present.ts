import { z } from "zod";
import type { PaymentMethod, RequestStatus } from "../../generated/prisma/client.js";
import type { MerchantConfiguration } from "../../domain/merchants/configurations-info.js";
import type { DomainContext } from "../../domain/context.js";
import type { Links } from "../../transport/links.js";
import type { RequestDetails } from "../../domain/requests/aggregate.js";
import { readsMerchantFields } from "../../domain/requests/visibility.js";
import { effectiveStatus } from "../../domain/requests/status.js";
import { notificationTransaction, toNotificationTransaction } from "../../domain/webhooks/events.js";
import type { EventPage, ListedEvent } from "../../domain/events/list.js";
import { EVENT_OBJECT_CLAIM, EVENT_TYPE_NAMES } from "../../domain/events/types.js";
import type { RefundResult } from "../../domain/transactions/refund.js";

/**
 * The legacy JSON shapes: the spec's field names and nesting, lower-case statuses and methods,
 * ISO timestamps with milliseconds, and absent optional fields omitted rather than null.
 * The zod schemas document the responses in /api/openapi.json.
 */

const methodNames: Record<PaymentMethod, string> = {
  QR_CODE: "qr_code",
  NFC: "nfc",
  AUTH_ALPHANUMERIC: "auth_alphanumeric",
  AUTH_NUMERIC: "auth_numeric",
};
const statusNames: Record<RequestStatus, string> = { NEW: "new", PAID: "paid", CANCELLED: "cancelled", EXPIRED: "expired" };

const method = z.enum(["qr_code", "nfc", "auth_alphanumeric", "auth_numeric"]);
const timestamp = z.string().describe("ISO 8601 UTC with milliseconds");

export const legacyPaymentRequest = z.object({
  requestId: z.string(),
  merchantId: z.string(),
  clientId: z.string().optional().describe("Merchant keys only."),
  externalReference: z.string().optional().describe("Merchant keys only."),
  denomination: z.object({ amount: z.number().int(), asset: z.string() }),
  payments: z.array(
    z.object({ amount: z.number().int(), account: z.string().optional(), ledger: z.string(), methods: z.array(method) }),
  ),
  paidBy: z
    .object({
      transactionId: z.string(),
      amount: z.number().int(),
      account: z.string().optional().describe("Merchant keys only."),
      ledger: z.string(),
      paidAt: timestamp,
      responseCode: z.string().optional().describe("Merchant keys only."),
      authCode: z.string().optional().describe("Merchant keys only."),
      type: z.string().optional().describe("Merchant keys only."),
      receipt: z.string().optional().describe("Merchant keys only."),
      settlementDate: timestamp.optional().describe("Merchant keys only."),
    })
    .optional(),
  requestCode: z.string(),
  shortCode: z.string().describe("PR-XXX-XXX: for a person to read aloud and type on the pay page."),
  qrCode: z.string().describe("The address of the request's pay page (what its QR code encodes)."),
  description: z.string().optional(),
  status: z.enum(["new", "paid", "cancelled", "expired"]),
  createdAt: timestamp,
  updatedAt: timestamp,
  expiresAt: timestamp,
  notifyUrl: z.string().optional().describe("Merchant keys only."),
  redirectUrl: z.string().optional().describe("Merchant keys only. Where the pay page links once the request is paid."),
});
export type LegacyPaymentRequest = z.infer<typeof legacyPaymentRequest>;

export const legacyMerchantConfiguration = z.object({
  merchantId: z.string(),
  name: z.string(),
  clientId: z.string().optional(),
  items: z.array(
    z.object({
      label: z.string(),
      asset: z.string(),
      account: z.string().optional(),
      index: z.number().int(),
      methods: z.array(method),
      icon: z.object({ image: z.string(), mimeType: z.string() }).optional(),
      units: z.object({ label: z.string(), factor: z.number().int() }),
      fractionalDigits: z.number().int(),
      precision: z.number().int(),
    }),
  ),
});
export type LegacyMerchantConfiguration = z.infer<typeof legacyMerchantConfiguration>;

export const legacyTransaction = notificationTransaction;

/** The object of a request.cancelled or request.expired event: the request as a merchant key reads it, without its payment options and addresses. */
const eventRequest = legacyPaymentRequest
  .omit({ payments: true, paidBy: true, qrCode: true, notifyUrl: true, redirectUrl: true })
  .extend({ status: z.enum(["cancelled", "expired"]) });

/** events.list's answer (presentEventPage). */
export const legacyEventPage = z.object({
  events: z.array(
    z.object({
      eventId: z.string().describe("Also the jti of the event's endpoint tokens."),
      type: z.enum(["payment.completed", "refund.completed", "request.cancelled", "request.expired"]),
      createdAt: timestamp,
      requestId: z.string(),
      transaction: notificationTransaction.optional().describe("payment.completed and refund.completed."),
      request: eventRequest.optional().describe("request.cancelled and request.expired."),
    }),
  ),
  nextCursor: z.string().nullable().describe("Pass as `after` for the next page; null on the last page."),
});

/**
 * An event as events.list answers it: its dotted type, and its object under the claim an endpoint's
 * token carries it in (`transaction` or `request`), exactly as stored.
 */
function presentEvent(event: ListedEvent) {
  return {
    eventId: event.id,
    type: EVENT_TYPE_NAMES[event.type],
    createdAt: event.createdAt.toISOString(),
    requestId: event.requestId,
    [EVENT_OBJECT_CLAIM[event.type]]: event.payload,
  };
}

export const presentEventPage = (page: EventPage) => ({ events: page.events.map(presentEvent), nextCursor: page.nextCursor });

/** Keeps a key only when its value is present: legacy JSON has no nulls. */
function optional<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A request as `reader` may see it (see domain/requests/visibility.ts): payer keys get the payment-facing fields. */
export function presentRequest(
  request: RequestDetails,
  { now, actor }: Pick<DomainContext, "now" | "actor">,
  links: Links,
): LegacyPaymentRequest {
  const purchase = request.purchase;
  const merchant = readsMerchantFields(actor);
  return {
    requestId: request.id,
    merchantId: request.merchantId,
    ...optional("clientId", merchant ? request.clientId : null),
    ...optional("externalReference", merchant ? request.externalReference : null),
    denomination: { amount: Number(request.amount), asset: request.asset },
    payments: request.options.map((option) => ({
      amount: Number(option.amount),
      ...optional("account", option.account),
      ledger: option.ledgerId,
      methods: option.methods.map((m) => methodNames[m]) as LegacyPaymentRequest["payments"][number]["methods"],
    })),
    ...optional(
      "paidBy",
      purchase && {
        transactionId: purchase.id,
        amount: Number(purchase.amount),
        ledger: purchase.ledgerId,
        paidAt: purchase.createdAt.toISOString(),
        ...(merchant && {
          account: purchase.account,
          responseCode: purchase.responseCode,
          authCode: purchase.authCode,
          type: purchase.paymentType,
          ...optional("receipt", purchase.receipt),
          settlementDate: purchase.settlementDate.toISOString(),
        }),
      },
    ),
    requestCode: request.requestCode,
    shortCode: request.shortCode,
    qrCode: links.payUrl(request.requestCode),
    ...optional("description", request.description),
    status: statusNames[effectiveStatus(request, now())] as LegacyPaymentRequest["status"],
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
    expiresAt: request.expiresAt.toISOString(),
    ...optional("notifyUrl", merchant ? request.notifyUrl : null),
    ...optional("redirectUrl", merchant ? request.redirectUrl : null),
  };
}

export function presentConfiguration({ merchant, clientId, items }: MerchantConfiguration): LegacyMerchantConfiguration {
  return {
    merchantId: merchant.id,
    name: merchant.name,
    ...optional("clientId", clientId),
    items: items.map((item) => ({
      label: item.label,
      asset: item.ledgerId,
      ...optional("account", item.account),
      index: item.index,
      methods: item.methods.map((m) => methodNames[m]) as LegacyMerchantConfiguration["items"][number]["methods"],
      ...optional("icon", item.iconImage && item.iconMimeType ? { image: item.iconImage, mimeType: item.iconMimeType } : null),
      units: { label: item.unitsLabel, factor: item.unitsFactor },
      fractionalDigits: item.fractionalDigits,
      precision: item.precision,
    })),
  };
}

/** A refund as the contract shows it: the notification's transaction shape, transactionType REFUND. */
export function presentRefund(refund: RefundResult) {
  return toNotificationTransaction(refund, refund.request);
}
