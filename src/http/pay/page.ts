/**
 * The pay page's HTML: the project's own markup, styled and scripted by its own files only (assets.ts; the
 * Content-Security-Policy allows nothing else). Every state has its own page (open, paid, expired,
 * cancelled, unknown, and the form to type a code); the script turns an open page into the paid
 * one in place when the payment happens elsewhere.
 */
import type { PayPageRequest } from "../../domain/requests/pay-page.js";
import { effectiveStatus } from "../../domain/requests/status.js";
import type { RequestStatus } from "../../generated/prisma/client.js";
import type { AssetHrefs } from "./assets.js";
import { escapeHtml as e, formatAmount } from "./format.js";
import { say, type Language, type Messages } from "./messages.js";

/** What a page is made with: the reader's language and its words, and the addresses of the page's files. */
export interface PageContext {
  language: Language;
  words: Messages;
  assets: AssetHrefs;
}

export interface OpenPageForm {
  /** The CSRF token the form posts back (the page's cookie holds the same). */
  csrf: string;
  /** One per page load: a double submit of the form is one payment. */
  idempotencyKey: string;
  /** A refusal to show above the form (a page without script posts the form and comes back here). */
  error: string | null;
}

/** A merchant's accent colour, as a stylesheet of its own (the policy allows no inline style). */
export const accentHref = (color: string) => `/pay/accent/${color.slice(1)}.css`;

function layout(
  { language, words, assets }: PageContext,
  title: string,
  body: string,
  script: boolean,
  accentColor: string | null = null,
): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${e(title)}</title>
<link rel="stylesheet" href="${e(assets.stylesheet)}">
${accentColor ? `<link rel="stylesheet" href="${e(accentHref(accentColor))}">\n` : ""}${script ? `<script type="module" src="${e(assets.script)}"></script>\n` : ""}</head>
<body>
${body}
${script ? `<script type="application/json" id="pay-messages">${JSON.stringify(words).replace(/</g, "\\u003c")}</script>\n` : ""}</body>
</html>
`;
}

const hidden = (shown: boolean) => (shown ? "" : " hidden");

/** The page of a request that exists, in whatever state it is. */
export function requestPage(page: PayPageRequest, now: Date, context: PageContext, form: OpenPageForm): string {
  const { request, merchantName, units, walletLedger, accentColor, logoHash } = page;
  const w = context.words;
  const status: RequestStatus = effectiveStatus(request, now);
  const amount = formatAmount(request.amount, units);
  const purchase = request.purchase;
  const titles: Record<RequestStatus, string> = {
    NEW: say(w, "title", { merchant: merchantName }),
    PAID: `${w.receipt}: ${merchantName}`,
    EXPIRED: w.expiredTitle,
    CANCELLED: w.cancelledTitle,
  };
  const base = `/pay/${encodeURIComponent(request.requestCode)}`;
  const remainingSeconds = Math.max(0, Math.ceil((request.expiresAt.getTime() - now.getTime()) / 1000));

  const walletForm = walletLedger
    ? `<form id="wallet-form" class="card" method="post" action="${base}" novalidate>
  <h2>${e(w.payWithWallet)}</h2>
  <input type="hidden" name="csrf" value="${e(form.csrf)}">
  <input type="hidden" name="idempotencyKey" value="${e(form.idempotencyKey)}">
  <label for="wallet">${e(w.walletId)}</label>
  <input id="wallet" name="wallet" type="text" required autocomplete="off" autocapitalize="none" spellcheck="false" aria-describedby="wallet-help form-error">
  <p id="wallet-help" class="help">${e(say(w, "walletHelp", { asset: request.asset }))}</p>
  <p id="form-error" class="error" role="alert"${hidden(form.error !== null)}>${e(form.error ?? "")}</p>
  <button type="submit">${e(say(w, "payButton", { amount }))}</button>
</form>`
    : "";

  const body = `<main id="pay" data-code="${e(request.requestCode)}" data-status="${status}" data-expires-at="${request.expiresAt.toISOString()}" data-units-label="${e(units.label)}" data-fractional-digits="${units.fractionalDigits}">
<header>
  ${logoHash ? `<img class="logo" src="/pay/logos/${e(request.merchantId)}/${e(logoHash)}" alt="" height="48">` : ""}
  <p class="merchant">${e(merchantName)}</p>
  <h1 id="page-title">${e(titles[status])}</h1>
</header>
<section class="summary card" aria-labelledby="amount-label">
  <p id="amount-label" class="label">${e(status === "NEW" ? w.amountDue : w.amount)}</p>
  <p class="amount">${e(amount)}</p>
  ${request.description ? `<p class="description"><span class="label">${e(w.reference)}:</span> ${e(request.description)}</p>` : ""}
  <p class="status"><span class="label">${e(w.status)}:</span> <strong id="status-text" role="status" aria-live="polite">${e(w[`status${status}`])}</strong></p>
  <p class="countdown" data-when="NEW"${hidden(status === "NEW")}>${e(w.expiresIn)} <time id="countdown" datetime="${request.expiresAt.toISOString()}">${e(countdownText(w, remainingSeconds))}</time></p>
  <p class="live" data-when="NEW"${hidden(status === "NEW")}>${e(w.live)}</p>
</section>
<div class="ways" data-when="NEW"${hidden(status === "NEW")}>
${walletForm}
<section class="card app" aria-labelledby="app-title">
  <h2 id="app-title">${e(w.payWithApp)}</h2>
  <p>${e(w.scanOrType)}</p>
  <img class="qr" src="${base}/qr.svg" alt="${e(w.qrLabel)}" width="220" height="220">
  <dl class="codes">
    <dt>${e(w.shortCode)}</dt><dd class="code">${e(request.shortCode)}</dd>
    <dt>${e(w.requestCode)}</dt><dd class="code">${e(request.requestCode)}</dd>
  </dl>
</section>
</div>
<section class="card receipt" data-when="PAID" aria-labelledby="receipt-title"${hidden(status === "PAID")}>
  <h2 id="receipt-title">${e(w.receipt)}</h2>
  <dl>
    <dt>${e(w.paidAmount)}</dt><dd id="paid-amount">${purchase ? e(formatAmount(purchase.amount, units)) : ""}</dd>
    <dt>${e(w.paidAt)}</dt><dd><time id="paid-at" datetime="${purchase ? purchase.createdAt.toISOString() : ""}">${purchase ? e(utcText(purchase.createdAt)) : ""}</time></dd>
    <dt>${e(w.transactionId)}</dt><dd id="paid-transaction" class="code">${purchase ? e(purchase.id) : ""}</dd>
  </dl>
  ${request.redirectUrl ? `<p><a class="button" id="back" href="${e(request.redirectUrl)}">${e(say(w, "backToMerchant", { merchant: merchantName }))}</a></p>` : ""}
</section>
<p class="card notice" data-when="EXPIRED"${hidden(status === "EXPIRED")}>${e(w.expired)}</p>
<p class="card notice" data-when="CANCELLED"${hidden(status === "CANCELLED")}>${e(w.cancelled)}</p>
</main>`;
  return layout(context, titles[status], body, true, accentColor);
}

/** `/pay`: a form to type the code a person was given (unknown codes come back here, with a 404). */
export function codeEntryPage(context: PageContext, unknownCode: string | null): string {
  const w = context.words;
  const body = `<main id="enter-code">
<header><h1>${e(unknownCode === null ? w.payTitle : w.notFoundTitle)}</h1></header>
${unknownCode === null ? "" : `<p class="card notice" role="alert">${e(w.notFound)}</p>`}
<form class="card" method="get" action="/pay">
  <h2>${e(w.enterCode)}</h2>
  <label for="code">${e(w.codeLabel)}</label>
  <input id="code" name="code" type="text" required autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="code-help" value="${e(unknownCode ?? "")}">
  <p id="code-help" class="help">${e(w.codeHelp)}</p>
  <button type="submit">${e(w.findButton)}</button>
</form>
</main>`;
  return layout(context, unknownCode === null ? w.payTitle : w.notFoundTitle, body, false);
}

/** "23 h 57 min", "1 min 5 s" or "5 s", as the script counts down. */
function countdownText(w: Messages, seconds: number): string {
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60].map(String);
  if (seconds >= 3600) return say(w, "hours", { h: h!, m: m! });
  return seconds >= 60 ? say(w, "minutes", { m: m!, s: s! }) : say(w, "seconds", { s: s! });
}

/** What a page shows of a time before its script shows it in the reader's own zone. */
const utcText = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
