import type { Hono } from "hono";
import QRCode from "qrcode";
import { getRequest } from "../domain/requests/info.js";
import type { Links } from "../transport/links.js";
import type { CallerMiddleware } from "./middleware.js";

/**
 * GET /requests/:requestId/qr.svg: the request's pay page address (payUrl, which ends in its
 * requestCode) as an SVG QR code, for terminals and dashboards: a phone's camera opens the page, a
 * wallet app reads the code off the end of the address.
 */
export function mountQrCodes(app: Hono, { rateLimited, authenticated }: CallerMiddleware, links: Links) {
  app.get("/requests/:requestId/qr.svg", rateLimited, authenticated, async (c) => {
    const request = await getRequest(c.var.ctx, { requestId: c.req.param("requestId") });
    const svg = await payPageQrSvg(links, request.requestCode);
    return c.body(svg, 200, { "content-type": "image/svg+xml", "cache-control": "private, max-age=300" });
  });
}

/** The QR code of a request's pay page address (payUrl), as SVG: what both QR endpoints answer. */
export const payPageQrSvg = (links: Links, requestCode: string) =>
  QRCode.toString(links.payUrl(requestCode), { type: "svg", errorCorrectionLevel: "M", margin: 2 });
