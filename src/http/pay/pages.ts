import { randomUUID } from "node:crypto";
import type { Hono } from "hono";
import { findPayPageRequest, findRequestByPageCode } from "../../domain/requests/pay-page.js";
import type { Links } from "../../transport/links.js";
import { payPageQrSvg } from "../qr.js";
import type { AssetHrefs } from "./assets.js";
import { csrfToken } from "./csrf.js";
import { codeEntryPage, requestPage } from "./page.js";
import { pageContextOf, payerView, refusalText, UNKNOWN_REQUEST } from "./payer.js";

export interface PagesParts {
  links: Links;
  assets: AssetHrefs;
  /** Over https the form's cookie is Secure. */
  secure: boolean;
}

const NO_STORE = { "cache-control": "no-store" };

/** The pages (the code form, a request's page), a request's status as JSON and its QR code. */
export function mountPages(app: Hono, { links, assets, secure }: PagesParts) {
  app.get("/pay", async (c) => {
    const typed = c.req.query("code")?.trim();
    if (typed) {
      const page = await findPayPageRequest(typed);
      if (page) return c.redirect(`/pay/${encodeURIComponent(page.request.requestCode)}`, 303);
      return c.html(codeEntryPage(pageContextOf(c, assets), typed), 404, NO_STORE);
    }
    return c.html(codeEntryPage(pageContextOf(c, assets), null), 200, NO_STORE);
  });

  app.get("/pay/:code", async (c) => {
    const page = await findPayPageRequest(c.req.param("code"));
    const context = pageContextOf(c, assets);
    if (!page) return c.html(codeEntryPage(context, c.req.param("code")), 404, NO_STORE);
    // A short code in the address shows the page at its requestCode (the address the QR code holds).
    if (page.request.requestCode !== c.req.param("code"))
      return c.redirect(`/pay/${encodeURIComponent(page.request.requestCode)}`, 303);
    const error = c.req.query("error");
    const form = {
      csrf: csrfToken(c, secure),
      idempotencyKey: randomUUID(),
      error: error ? refusalText(context.words, error) : null,
    };
    return c.html(requestPage(page, new Date(), context, form), 200, NO_STORE);
  });

  app.get("/pay/:code/status", async (c) => {
    const request = await findRequestByPageCode(c.req.param("code"));
    if (!request) return c.json(UNKNOWN_REQUEST, 404);
    return c.json(payerView(request, links), 200, NO_STORE);
  });

  app.get("/pay/:code/qr.svg", async (c) => {
    const request = await findRequestByPageCode(c.req.param("code"));
    if (!request) return c.json(UNKNOWN_REQUEST, 404);
    const svg = await payPageQrSvg(links, request.requestCode);
    return c.body(svg, 200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=3600" });
  });
}
