import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { config } from "../api-parts.js";
import { app } from "../fixtures.js";
import { buildMerchant, buildRequest } from "../factories.js";

describe("GET /requests/:requestId/qr.svg", () => {
  it("returns the QR code of exactly the request's pay page address (payUrl)", async () => {
    const { merchant, request } = await buildRequest();
    const response = await app.fetch(
      new Request(`http://test/requests/${request.id}/qr.svg`, { headers: { "x-api-key": merchant.apiKey } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await response.text();
    const payUrl = `${config.server.publicUrl}/pay/${request.requestCode}`;
    expect(svg).toBe(await QRCode.toString(payUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 }));
    expect(svg).not.toBe(await QRCode.toString(request.requestCode, { type: "svg", errorCorrectionLevel: "M", margin: 2 }));
  });

  it("is only for keys that may read the request", async () => {
    const { request } = await buildRequest();
    const other = await buildMerchant();
    const response = await app.fetch(
      new Request(`http://test/requests/${request.id}/qr.svg`, { headers: { "x-api-key": other.apiKey } }),
    );
    expect(response.status).toBe(404);
    expect((await app.fetch(new Request(`http://test/requests/${request.id}/qr.svg`))).status).toBe(401);
  });
});
