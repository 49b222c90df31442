import type { Insertable } from "kysely";
import type { ConfigurationItem } from "../../generated/kysely/database.js";
import type { PaymentMethod } from "../../generated/kysely/enums.js";
import { sandboxWalletLedgerId, TEST_UPLINK } from "../ledgers/sandbox.js";

const ALL_METHODS: PaymentMethod[] = ["QR_CODE", "NFC", "AUTH_ALPHANUMERIC", "AUTH_NUMERIC"];

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#0b7a75"/></svg>';

/**
 * The sandbox configuration a new merchant starts with: the test uplink and the sandbox wallet
 * ledger of its currency, each accepting that currency only and every payment method.
 */
export function defaultConfigurationItems(currency: string): Omit<Insertable<ConfigurationItem>, "id" | "merchantId">[] {
  const fractionalDigits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const display = {
    methods: ALL_METHODS,
    iconImage: Buffer.from(ICON_SVG).toString("base64"),
    iconMimeType: "image/svg+xml",
    unitsLabel: currency,
    unitsFactor: 10 ** fractionalDigits,
    fractionalDigits,
    precision: fractionalDigits,
  };
  return [
    { index: 0, label: `${currency} (test uplink)`, ledgerId: TEST_UPLINK, currency, ...display },
    { index: 1, label: `${currency} sandbox wallet`, ledgerId: sandboxWalletLedgerId(currency), currency, ...display },
  ];
}
