import { randomUUID } from "node:crypto";
import type { Hono } from "hono";
import { logoByHash } from "../../domain/merchants/branding.js";
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

  // A merchant's logo (domain/merchants/branding.ts checked its type against its bytes), by its hash: the
  // same address always answers the same bytes.
  app.get("/pay/logos/:merchantId/:hash", async (c) => {
    const logo =
      /^[0-9a-f-]{36}$/.test(c.req.param("merchantId")) && /^[0-9a-f]{16}$/.test(c.req.param("hash"))
        ? await logoByHash(c.req.param("merchantId"), c.req.param("hash"))
        : null;
    if (!logo) return c.notFound();
    return c.body(new Uint8Array(logo.bytes), 200, {
      "content-type": logo.type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    });
  });

  // A merchant's accent colour (checked when it was set: domain/merchants/branding.ts) as a stylesheet.
  app.get("/pay/accent/:file", (c) => {
    const [, hex] = /^([0-9a-f]{6})\.css$/.exec(c.req.param("file")) ?? [];
    if (!hex) return c.notFound();
    return c.body(`:root{--accent:#${hex}}\n`, 200, {
      "content-type": "text/css; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
    });
  });

  app.get("/pay/:code/qr.svg", async (c) => {
    const request = await findRequestByPageCode(c.req.param("code"));
    if (!request) return c.json(UNKNOWN_REQUEST, 404);
    const svg = await payPageQrSvg(links, request.requestCode);
    return c.body(svg, 200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=3600" });
  });
}
