import { pool } from "../../db.js";
import { nullable } from "../../sql/columns.js";
import { queryRow, statement } from "../../sql/statements.js";
import { configurationItems, merchants } from "../../sql/tables.js";
import type { DomainContext } from "../context.js";
import { isWellFormedText } from "../validation.js";
import { sandboxWalletLedgerId } from "../ledgers/sandbox.js";
import { findRequestDetails, type RequestDetails } from "./aggregate.js";
import { normalizeShortCode } from "./request-code.js";

/**
 * Who acts through the hosted pay page: a payer without a key. It reads and pays as a payer key
 * does (the payer's view only), and its activity rows name it `pay-page`.
 */
export const PAY_PAGE: DomainContext["actor"] = { kind: "payer", keyPrefix: "pay-page" };

/** How the merchant shows amounts of the request's asset (its configuration item's display units). */
export interface DisplayUnits {
  label: string;
  fractionalDigits: number;
}

/** What the pay page shows of a request beyond the payer's view of it. */
export interface PayPageRequest {
  request: RequestDetails;
  merchantName: string;
  units: DisplayUnits;
  /** The request's sandbox wallet ledger, when it offers one: the page then takes a wallet id and pays there. */
  walletLedger: string | null;
}

const MERCHANT_AND_UNITS = statement(
  `
  SELECT m.name AS "merchantName", i.units_label AS label, i.fractional_digits AS "fractionalDigits"
  FROM merchant m
  LEFT JOIN LATERAL (
    SELECT units_label, fractional_digits FROM configuration_item
    WHERE merchant_id = m.id AND client_id IS NOT DISTINCT FROM $2 AND currency = $3
    ORDER BY index LIMIT 1) i ON true
  WHERE m.id = $1`,
  {
    merchantName: merchants.columns.name,
    label: nullable(configurationItems.columns.unitsLabel),
    fractionalDigits: nullable(configurationItems.columns.fractionalDigits),
  },
);

/**
 * A request by the code in a pay page's address or typed on it: its requestCode, or its shortCode
 * as a person may type it. Null when it names nothing.
 */
export async function findRequestByPageCode(code: string): Promise<RequestDetails | null> {
  if (!isWellFormedText(code)) return null;
  const shortCode = normalizeShortCode(code);
  if (shortCode) return findRequestDetails({ shortCode });
  return code.length <= 64 ? findRequestDetails({ requestCode: code }) : null;
}

/** The request a pay page's code names (findRequestByPageCode), with what its page shows beside it. */
export async function findPayPageRequest(code: string): Promise<PayPageRequest | null> {
  const request = await findRequestByPageCode(code);
  if (!request) return null;
  const row = (await queryRow(pool, MERCHANT_AND_UNITS, [request.merchantId, request.clientId, request.asset]))!;
  const wallet = sandboxWalletLedgerId(request.asset);
  return {
    request,
    merchantName: row.merchantName,
    // A request in an asset the merchant no longer configures still shows, in its smallest units.
    units: { label: row.label ?? request.asset, fractionalDigits: row.fractionalDigits ?? 0 },
    walletLedger: request.options.some((option) => option.ledgerId === wallet) ? wallet : null,
  };
}
