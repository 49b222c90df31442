import { errorCodeDescriptions, errorCodes } from "../domain/errors.js";
import { builder } from "./builder.js";

export const RequestStatusEnum = builder.enumType("RequestStatus", {
  description: "Where a payment request stands. A request past expiresAt reads EXPIRED.",
  values: {
    NEW: { description: "Open: can be paid or cancelled until it expires." },
    PAID: { description: "Paid; paidBy holds the purchase." },
    CANCELLED: { description: "Cancelled by the merchant." },
    EXPIRED: { description: "Past expiresAt without being paid." },
  } as const,
});

export const PaymentMethodEnum = builder.enumType("PaymentMethod", {
  description: "How a payer initiates payment.",
  values: {
    QR_CODE: { description: "The payer scans a QR code of the requestCode." },
    NFC: { description: "The requestCode is transmitted to the wallet over NFC." },
    AUTH_ALPHANUMERIC: { description: "The payer presents an alphanumeric authorization." },
    AUTH_NUMERIC: { description: "The payer presents a numeric authorization." },
  } as const,
});

export const TransactionTypeEnum = builder.enumType("TransactionType", {
  description: "The kind of a transaction.",
  values: {
    PURCHASE: { description: "A payment of a request." },
    REFUND: { description: "Money returned to the payer from a purchase." },
  } as const,
});

export const TransactionStateEnum = builder.enumType("TransactionState", {
  description: "The state of a transaction. Transactions are recorded once they complete.",
  values: { COMPLETED: { description: "The transfer completed at the ledger." } } as const,
});

export const ErrorCodeEnum = builder.enumType("ErrorCode", {
  description: "Stable error codes, the same as the REST API's `message`.",
  values: Object.fromEntries(errorCodes.map((code) => [code, { description: errorCodeDescriptions[code] }])) as {
    [C in (typeof errorCodes)[number]]: { description: string };
  },
});
