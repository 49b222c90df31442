import { database } from "../../db.js";
import { compiled } from "../../sql/compiled.js";
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
  /** The merchant's display name when it set one (its branding), else its name. */
  merchantName: string;
  /** The rest of its branding: its accent colour and its logo's hash, null when not set. */
  accentColor: string | null;
  logoHash: string | null;
  units: DisplayUnits;
  /** The request's sandbox wallet ledger, when it offers one: the page then takes a wallet id and pays there. */
  walletLedger: string | null;
}

/**
 * The merchant's name, and the display units of its first configuration item (of the request's
 * client, or the merchant's own) that accepts the request's asset: null when none does. Compiled
 * once (src/sql/compiled.ts): every view of a pay page reads it.
 */
const MERCHANT_AND_UNITS = compiled<
  { merchantId: string; clientId: string | null; asset: string },
  {
    merchantName: string;
    label: string | null;
    fractionalDigits: number | null;
    accentColor: string | null;
    logoHash: string | null;
  }
>((qb, param) =>
  qb
    .selectFrom("merchant as m")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("configurationItem as c")
          .select(["c.unitsLabel", "c.fractionalDigits"])
          .whereRef("c.merchantId", "=", "m.id")
          .where("c.clientId", "is not distinct from", param("clientId"))
          .where("c.currency", "=", param("asset"))
          .orderBy("c.index")
          .limit(1)
          .as("i"),
      (join) => join.onTrue(),
    )
    .leftJoin("merchantBranding as b", "b.merchantId", "m.id")
    .select((eb) => [
      eb.fn.coalesce("b.displayName", "m.name").as("merchantName"),
      "i.unitsLabel as label",
      "i.fractionalDigits",
      "b.accentColor",
      "b.logoHash",
    ])
    .where("m.id", "=", param("merchantId")),
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
  const [row] = await MERCHANT_AND_UNITS(database, {
    merchantId: request.merchantId,
    clientId: request.clientId,
    asset: request.asset,
  });
  const wallet = sandboxWalletLedgerId(request.asset);
  return {
    request,
    merchantName: row!.merchantName,
    accentColor: row!.accentColor,
    logoHash: row!.logoHash,
    // A request in an asset the merchant no longer configures still shows, in its smallest units.
    units: { label: row!.label ?? request.asset, fractionalDigits: row!.fractionalDigits ?? 0 },
    walletLedger: request.options.some((option) => option.ledgerId === wallet) ? wallet : null,
  };
}
