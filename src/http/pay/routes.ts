/**
 * The hosted pay page, public (no API key) but bounded: every page, status read, stream and payment
 * is charged to the caller's client address; answers carry a Content-Security-Policy that allows
 * nothing from elsewhere; the payment form is CSRF-safe (a same-site cookie matched by the form,
 * and no cross-site Origin) and carries an idempotency key, so a double submit pays once. It shows
 * the payer's view of a request only (domain/requests/visibility.ts).
 *
 *   GET  /pay                 a form to type a code (?code= goes to its page)       pages.ts
 *   GET  /pay/:code           the page of a request, by requestCode or shortCode (404: unknown)
 *   GET  /pay/:code/status    the payer's view as JSON (what the page polls)
 *   GET  /pay/:code/qr.svg    the QR code of the page's address (payUrl)
 *   GET  /pay/:code/events    the payer's view as server-sent events, on every change  status-stream.ts
 *   GET  /pay/logos/:merchantId/:hash   a merchant's logo (its branding)              pages.ts
 *   GET  /pay/accent/:hex.css the merchant's accent colour, as a stylesheet
 *   POST /pay/:code           pay with a sandbox wallet                               payment.ts
 *   GET  /pay/assets/:file    the page's stylesheet and script                        assets.ts
 */
import type { Hono } from "hono";
import type { Logger } from "../../logger.js";
import type { RequestChangeFeed } from "../../pubsub/request-changes.js";
import type { Links } from "../../transport/links.js";
import type { RateLimiter } from "../../transport/rate-limit.js";
import { pageHeaders } from "../page-headers.js";
import { loadPayAssets } from "./assets.js";
import { mountPages } from "./pages.js";
import { chargedToAddress } from "./payer.js";
import { mountPayment, paymentChecks } from "./payment.js";
import { mountStatusStream } from "./status-stream.js";

export interface PayPageParts {
  limiter: RateLimiter;
  changes: RequestChangeFeed;
  links: Links;
  logger: Logger;
  /** PUBLIC_URL: a payment's Origin must be the service's own; over https the form's cookie is Secure. */
  publicUrl: string;
}

/** The pages, status reads, QR codes and streams, each charged one call (the assets are not). */
const CHARGED_READS = [
  "/pay",
  "/pay/:code",
  "/pay/:code/status",
  "/pay/:code/qr.svg",
  "/pay/:code/events",
  "/pay/logos/:merchantId/:hash",
  "/pay/accent/:file",
];

export function mountPayPage(app: Hono, { limiter, changes, links, logger, publicUrl }: PayPageParts) {
  const publicOrigin = new URL(publicUrl).origin;
  // No address of a page (its request code) goes to another site; its own form posts keep their
  // Origin, which "no-referrer" would send as `null`.
  const headers = pageHeaders("same-origin");
  app.use("/pay", headers);
  app.use("/pay/*", headers);

  const assets = loadPayAssets();
  app.get("/pay/assets/:file", async (c) => (await assets.answer(c.req.param("file"), c.req.raw)) ?? c.notFound());
  // The one charge, on every route but the assets: a payment only once its form's size and origin pass.
  const charged = chargedToAddress(limiter);
  const [formSize, sameOrigin] = paymentChecks(publicOrigin);
  app.on("GET", CHARGED_READS, charged);
  app.post("/pay/:code", formSize, sameOrigin, charged);
  mountPages(app, { links, assets: assets.hrefs, secure: publicOrigin.startsWith("https:") });
  const closeStreams = mountStatusStream(app, { changes, links });
  mountPayment(app, { links, logger });

  return {
    /** Ends the open status streams (the API is stopping); their pages poll meanwhile. */
    closeStreams,
  };
}
