/**
 * The legacy answers carry the pay page's address as `qrCode` (as the legacy service did) and the
 * request's `shortCode`; a payer key reads a request by its shortCode; a redirectUrl is accepted
 * on create only when it starts with one of the merchant's allowed redirect URLs.
 */
import { describe, expect, it } from "vitest";
import { allowRedirects } from "../../src/domain/merchants/redirects.js";
import { config } from "../api-parts.js";
import { rest } from "../fixtures.js";
import { buildMerchant, buildPayerKey, operator } from "../factories.js";

const SHORT_CODE = /^PR-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}$/;

describe("the pay page's fields on the dotted routes", () => {
  it("answers qrCode (the pay page's address) and shortCode on create and info, for merchant and payer keys", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    const created = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: merchant.merchantId, asset: "NZD", amount: "300" },
    });
    expect(created.status).toBe(200);
    expect(created.body.shortCode).toMatch(SHORT_CODE);
    expect(created.body.qrCode).toBe(`${config.server.publicUrl}/pay/${created.body.requestCode}`);

    const byShortCode = await rest("requests.info", { apiKey: payerKey, query: { shortCode: created.body.shortCode } });
    expect(byShortCode).toMatchObject({
      status: 200,
      body: { requestId: created.body.requestId, shortCode: created.body.shortCode, qrCode: created.body.qrCode },
    });
    // Typed as a person might.
    const typed = await rest("requests.info", {
      apiKey: payerKey,
      json: { shortCode: created.body.shortCode.toLowerCase().replaceAll("-", "") },
    });
    expect(typed.body.requestId).toBe(created.body.requestId);
  });

  it("answers 404 for a shortCode that names nothing and 400 for a shortCode that is not a string", async () => {
    const payerKey = await buildPayerKey();
    expect(await rest("requests.info", { apiKey: payerKey, query: { shortCode: "PR-222-222" } })).toMatchObject({
      status: 404,
      body: { message: "REQUEST_NOT_FOUND" },
    });
    for (const shortCode of [7, true, null, ["PR-222-222"], { code: "PR-222-222" }])
      expect(await rest("requests.info", { apiKey: payerKey, json: { shortCode } }), JSON.stringify(shortCode)).toMatchObject({
        status: 400,
        body: { message: "INVALID_REQUEST_ID" },
      });
  });

  it("keeps a redirectUrl the merchant allows, shows it to the merchant only, and refuses any other with INVALID_REDIRECT_URL", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    await allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["https://shop.example/thanks"] });
    const create = (redirectUrl: unknown) =>
      rest("requests.create", {
        apiKey: merchant.apiKey,
        json: { merchantId: merchant.merchantId, asset: "NZD", amount: 1, redirectUrl },
      });

    const kept = await create("https://shop.example/thanks?order=42");
    expect(kept).toMatchObject({ status: 200, body: { redirectUrl: "https://shop.example/thanks?order=42" } });
    const asPayer = await rest("requests.info", { apiKey: payerKey, query: { requestId: kept.body.requestId } });
    expect(asPayer.status).toBe(200);
    expect(asPayer.body).not.toHaveProperty("redirectUrl");

    for (const redirectUrl of [
      "https://evil.test/thanks",
      "https://shop.example.evil.test/thanks",
      "ftp://shop.example/thanks",
      42,
      false,
      [],
    ])
      expect(await create(redirectUrl), JSON.stringify(redirectUrl)).toMatchObject({
        status: 400,
        body: { message: "INVALID_REDIRECT_URL" },
      });
    // The same refusal as a form parameter.
    const form = await rest("requests.create", {
      apiKey: merchant.apiKey,
      form: { merchantId: merchant.merchantId, asset: "NZD", amount: "1", redirectUrl: "https://evil.test/" },
    });
    expect(form).toMatchObject({ status: 400, body: { message: "INVALID_REDIRECT_URL" } });
  });
});
