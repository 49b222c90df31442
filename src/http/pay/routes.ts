/**
 * The hosted pay page, public (no API key) but bounded: every page, status read, stream and payment
 * is charged to the caller's client address; answers carry a Content-Security-Policy that allows
 * nothing from elsewhere; the payment form is CSRF-safe (a same-site cookie matched by the form,
 * and no cross-site Origin) and carries an idempotency key, so a double submit pays once. It shows
 * the payer's view of a request only (domain/requests/visibility.ts).
 *
 *   GET  /pay                 a form to type a code (?code= goes to its page)
 *   GET  /pay/:code           the page of a request, by requestCode or shortCode (404: unknown)
 *   GET  /pay/:code/status    the payer's view as JSON (what the page polls)
 *   GET  /pay/:code/events    the payer's view as server-sent events, on every change
 *   GET  /pay/:code/qr.svg    the QR code of the page's address (payUrl)
 *   POST /pay/:code           pay with a sandbox wallet (form fields csrf, idempotencyKey, wallet)
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import type { DomainContext } from "../../domain/context.js";
import { DomainError, type ErrorCode } from "../../domain/errors.js";
import { payRequest } from "../../domain/requests/pay.js";
import { findPayPageRequest, PAY_PAGE, type PayPageRequest } from "../../domain/requests/pay-page.js";
import { payRequestInput } from "../../domain/requests/schemas.js";
import type { Logger } from "../../logger.js";
import type { RequestChangeFeed } from "../../pubsub/request-changes.js";
import { clientBucketOf } from "../../transport/client-address.js";
import { clientAddressOf, requestIdOf } from "../../transport/request-context.js";
import { httpStatusOf } from "../../transport/http-status.js";
import { formParams } from "../../transport/form-params.js";
import { fingerprintOf, withIdempotency } from "../../transport/idempotency.js";
import type { Links } from "../../transport/links.js";
import type { RateLimiter } from "../../transport/rate-limit.js";
import { payPageQrSvg } from "../qr.js";
import { presentRequest } from "../rest/present.js";
import { staticAnswer } from "../static-answer.js";
import { PAY_CSS, PAY_JS } from "./assets.js";
import { chooseLanguage, messages, type Messages } from "./messages.js";
import { codeEntryPage, requestPage, type PageWords } from "./page.js";

export interface PayPageParts {
  limiter: RateLimiter;
  changes: RequestChangeFeed;
  links: Links;
  logger: Logger;
  /** PUBLIC_URL: a payment's Origin must be the service's own; over https the form's cookie is Secure. */
  publicUrl: string;
}

/** Nothing but the service itself: its stylesheet, its script, its own QR images, its own form. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const CSRF_COOKIE = "payreq_pay_csrf";
/** A stream ends after this long; the page's EventSource opens another (and polls meanwhile). */
const STREAM_LIFETIME_MS = 10 * 60_000;
const HEARTBEAT_MS = 15_000;

const pageMeter = (c: Context) => ({ bucket: `page:${clientBucketOf(clientAddressOf(c.req.raw))}`, perMinute: null });
const wordsOf = (c: Context): PageWords => {
  const language = chooseLanguage(c.req.header("accept-language"));
  return { language, words: messages[language] };
};
const payerContext = (c: Context, logger: Logger): DomainContext => ({
  actor: PAY_PAGE,
  requestId: requestIdOf(c.req.raw),
  logger: logger.child({ component: "pay-page", requestId: requestIdOf(c.req.raw) }),
  now: () => new Date(),
});
/** The payer's view of a request: the legacy shape as a payer key reads it. */
const payerView = (page: PayPageRequest, links: Links) =>
  presentRequest(page.request, { now: () => new Date(), actor: PAY_PAGE }, links);

export function mountPayPage(app: Hono, { limiter, changes, links, logger, publicUrl }: PayPageParts) {
  const publicOrigin = new URL(publicUrl).origin;
  const secure = publicOrigin.startsWith("https:");
  /** The open status streams, each with what ends it. */
  const streams = new Map<SSEStreamingApi, () => void>();

  const guarded = async (c: Context, next: () => Promise<void>) => {
    await next();
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("X-Content-Type-Options", "nosniff");
    // No address of a page (its request code) goes to another site; its own form posts keep their
    // Origin, which "no-referrer" would send as `null`.
    c.header("Referrer-Policy", "same-origin");
    c.header("X-Frame-Options", "DENY");
  };
  app.use("/pay", guarded);
  app.use("/pay/*", guarded);

  // Compressed once, with an ETag to revalidate by once the hour is up (http/static-answer.ts).
  const stylesheet = staticAnswer(() => ({ body: PAY_CSS, type: "text/css; charset=utf-8" }), "public, max-age=3600");
  const script = staticAnswer(() => ({ body: PAY_JS, type: "text/javascript; charset=utf-8" }), "public, max-age=3600");
  app.get("/pay/assets/pay.css", (c) => stylesheet(c.req.raw));
  app.get("/pay/assets/pay.js", (c) => script(c.req.raw));

  app.get("/pay", async (c) => {
    await limiter.charge(pageMeter(c), 1);
    const typed = c.req.query("code")?.trim();
    if (typed) {
      const page = await findPayPageRequest(typed);
      if (page) return c.redirect(`/pay/${encodeURIComponent(page.request.requestCode)}`, 303);
      return c.html(codeEntryPage(wordsOf(c), typed), 404, { "cache-control": "no-store" });
    }
    return c.html(codeEntryPage(wordsOf(c), null), 200, { "cache-control": "no-store" });
  });

  app.get("/pay/:code", async (c) => {
    await limiter.charge(pageMeter(c), 1);
    const page = await findPayPageRequest(c.req.param("code"));
    const words = wordsOf(c);
    if (!page) return c.html(codeEntryPage(words, c.req.param("code")), 404, { "cache-control": "no-store" });
    // A short code in the address shows the page at its requestCode (the address the QR code holds).
    if (page.request.requestCode !== c.req.param("code"))
      return c.redirect(`/pay/${encodeURIComponent(page.request.requestCode)}`, 303);
    const error = c.req.query("error");
    return c.html(
      requestPage(page, new Date(), words, {
        csrf: csrfToken(c, secure),
        idempotencyKey: randomUUID(),
        error: error ? refusalText(words.words, error) : null,
      }),
      200,
      { "cache-control": "no-store" },
    );
  });

  app.get("/pay/:code/status", async (c) => {
    await limiter.charge(pageMeter(c), 1);
    const page = await findPayPageRequest(c.req.param("code"));
    if (!page) return c.json(UNKNOWN_REQUEST, 404);
    return c.json(payerView(page, links), 200, { "cache-control": "no-store" });
  });

  app.get("/pay/:code/qr.svg", async (c) => {
    await limiter.charge(pageMeter(c), 1);
    const page = await findPayPageRequest(c.req.param("code"));
    if (!page) return c.json(UNKNOWN_REQUEST, 404);
    const svg = await payPageQrSvg(links, page.request.requestCode);
    return c.body(svg, 200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=3600" });
  });

  app.get("/pay/:code/events", async (c) => {
    await limiter.charge(pageMeter(c), 1);
    const found = await findPayPageRequest(c.req.param("code"));
    if (!found) return c.json(UNKNOWN_REQUEST, 404);
    const { id: requestId, merchantId, requestCode } = found.request;
    return streamSSE(c, async (stream) => {
      // Listening before the first read: a change between the two is not lost.
      const changesOfMerchant = changes.changes(merchantId)[Symbol.asyncIterator]();
      let next = changesOfMerchant.next();
      const end = () => void changesOfMerchant.return?.();
      streams.set(stream, end);
      stream.onAbort(end);
      const lifetime = setTimeout(end, STREAM_LIFETIME_MS);
      const heartbeat = setInterval(() => void stream.write(": still here\n\n").catch(end), HEARTBEAT_MS);
      const send = (page: PayPageRequest) => stream.writeSSE({ event: "status", data: JSON.stringify(payerView(page, links)) });
      try {
        for (let page = await findPayPageRequest(requestCode); page; page = await findPayPageRequest(requestCode)) {
          await send(page);
          if (page.request.status !== "NEW") return;
          // Until the next change of this request (or the stream's end).
          let change = await next;
          while (!change.done && change.value.requestId !== requestId) change = await (next = changesOfMerchant.next());
          if (change.done || stream.aborted) return;
          next = changesOfMerchant.next();
        }
      } finally {
        clearTimeout(lifetime);
        clearInterval(heartbeat);
        end();
        streams.delete(stream);
        await stream.close().catch(() => {});
      }
    });
  });

  // A payment form is a few hundred bytes.
  app.post(
    "/pay/:code",
    bodyLimit({ maxSize: 4096, onError: (c) => c.json(refusal("BAD_REQUEST", "The form is too large."), 413) }),
  );
  app.post("/pay/:code", async (c) => {
    const wantsJson = (c.req.header("accept") ?? "").includes("application/json");
    const code = c.req.param("code");
    const answer = (status: number, body: unknown, error?: string) =>
      wantsJson
        ? c.json(body, status as 200)
        : c.redirect(`/pay/${encodeURIComponent(code)}${error ? `?error=${encodeURIComponent(error)}` : ""}`, 303);
    if (!sameSite(c, publicOrigin))
      return answer(403, refusal("FORBIDDEN", "A payment must come from the pay page itself."), "FORBIDDEN");
    await limiter.charge(pageMeter(c), 1);
    const form = await readForm(c);
    if (!form)
      return answer(
        400,
        refusal("BAD_REQUEST", "Send the form as application/x-www-form-urlencoded or multipart/form-data."),
        "BAD_REQUEST",
      );
    const cookie = getCookie(c, CSRF_COOKIE);
    if (!cookie || typeof form["csrf"] !== "string" || form["csrf"] !== cookie)
      return answer(403, refusal("FORBIDDEN", "The form has expired: reload the page."), "FORBIDDEN");
    const page = await findPayPageRequest(code);
    if (!page) return answer(404, UNKNOWN_REQUEST, "REQUEST_NOT_FOUND");
    if (!page.walletLedger)
      return answer(
        400,
        refusal("LEDGER_NOT_ENABLED", "This request cannot be paid with a sandbox wallet."),
        "LEDGER_NOT_ENABLED",
      );

    const input = { requestId: page.request.id, ledger: page.walletLedger, authorization: form["wallet"] };
    const ctx = payerContext(c, logger);
    const key = typeof form["idempotencyKey"] === "string" ? form["idempotencyKey"] : "";
    type Outcome = { ok: true } | { ok: false; code: ErrorCode; message: string };
    const pay = async (alongWrite?: DomainContext["alongWrite"]): Promise<Outcome> => {
      try {
        await payRequest({ ...ctx, alongWrite }, input as never);
        return { ok: true };
      } catch (error) {
        // A refusal is the form's answer, kept under its key: a double submit is refused alike.
        if (error instanceof DomainError) return { ok: false, code: error.code, message: error.message };
        throw error;
      }
    };
    let outcome: Outcome;
    try {
      ({ outcome } = await withIdempotency<Outcome>(
        ctx.actor,
        key,
        fingerprintOf("pay-page", payRequestInput, input),
        pay,
        async () => ({ ok: true }),
      ));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcome = { ok: false, code: error.code, message: error.message };
    }
    if (!outcome.ok) return answer(httpStatusOf(outcome.code), refusal(outcome.code, outcome.message), outcome.code);
    const paid = await findPayPageRequest(page.request.requestCode);
    return answer(200, payerView(paid!, links));
  });

  return {
    /** Ends the open status streams (the API is stopping); their pages poll meanwhile. */
    closeStreams: async () => {
      for (const end of streams.values()) end();
      await Promise.all([...streams.keys()].map((stream) => stream.close().catch(() => {})));
    },
  };
}

/**
 * The payment form's fields, or null for a body that is not a readable form. A URL-encoded body is
 * decoded strictly (transport/form-params.ts): bytes that are not UTF-8 reach the wallet id as an
 * unpaired surrogate, which the payment refuses, never as U+FFFD. A file field is not text.
 */
async function readForm(c: Context): Promise<Record<string, string> | null> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return formParams(await c.req.text());
  if (type !== "multipart/form-data") return null;
  try {
    const fields = await c.req.parseBody();
    return Object.fromEntries(Object.entries(fields).filter((field): field is [string, string] => typeof field[1] === "string"));
  } catch {
    return null;
  }
}

const refusal = (code: string, message: string) => ({ error: { code, message } });
const UNKNOWN_REQUEST = refusal("REQUEST_NOT_FOUND", "No such request.");

function refusalText(words: Messages, code: string): string {
  const key = `error${code}` as keyof Messages;
  return key in words ? words[key] : words.errorOTHER;
}

/** The form's token: the page's cookie (kept across the page's tabs), made on the first visit. */
function csrfToken(c: Context, secure: boolean): string {
  const existing = getCookie(c, CSRF_COOKIE);
  if (existing && /^[\w-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString("base64url");
  setCookie(c, CSRF_COOKIE, token, { path: "/pay", httpOnly: true, sameSite: "Strict", secure, maxAge: 24 * 3600 });
  return token;
}

/**
 * A browser says where a post comes from (Sec-Fetch-Site, which no page can set): the pay page
 * itself, or another site, refused before anything is read. A browser that does not say is judged
 * by the origin it names. A same-site cookie would not come along with a cross-site post anyway.
 */
function sameSite(c: Context, publicOrigin: string): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site === "same-origin") return true;
  if (site && site !== "none") return false;
  const origin = c.req.header("origin");
  if (origin === undefined) return true;
  const host = c.req.header("host");
  return origin === publicOrigin || (host !== undefined && URL.parse(origin)?.host === host);
}
