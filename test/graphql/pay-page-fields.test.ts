/** GraphQL's side of the pay page: payUrl, shortCode (payer-readable), paymentRequest(shortCode:), redirectUrl on create. */
import { describe, expect, it } from "vitest";
import { allowRedirects } from "../../src/domain/merchants/redirects.js";
import { config } from "../api-parts.js";
import { gql } from "../fixtures.js";
import { buildMerchant, buildPayerKey, operator } from "../factories.js";
import { graphql } from "../gql/index.js";
import { CreateRequest } from "../operations/requests.js";

const ByShortCode = graphql(`
  query ByShortCode($shortCode: String) {
    paymentRequest(shortCode: $shortCode) {
      id
      shortCode
      payUrl
    }
  }
`);

const PayerAsksForRedirect = graphql(`
  query PayerAsksForRedirect($shortCode: String) {
    paymentRequest(shortCode: $shortCode) {
      id
      redirectUrl
    }
  }
`);

describe("the pay page's fields in GraphQL", () => {
  it("creates with an allowed redirectUrl and answers payUrl and shortCode, which a payer key reads by shortCode", async () => {
    const merchant = await buildMerchant();
    const payerKey = await buildPayerKey();
    await allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["https://shop.example/"] });
    const created = await gql(
      CreateRequest,
      { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 300, redirectUrl: "https://shop.example/done" } },
      merchant.apiKey,
    );
    const request = created.data!.requestCreate as {
      id: string;
      requestCode: string;
      shortCode: string;
      payUrl: string;
      redirectUrl: string;
    };
    expect(request.payUrl).toBe(`${config.server.publicUrl}/pay/${request.requestCode}`);
    expect(request.redirectUrl).toBe("https://shop.example/done");
    expect(request.shortCode).toMatch(/^PR-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}$/);

    const read = await gql(ByShortCode, { shortCode: request.shortCode }, payerKey);
    expect(read.errors).toBeUndefined();
    expect(read.data!.paymentRequest).toEqual({ id: request.id, shortCode: request.shortCode, payUrl: request.payUrl });

    // redirectUrl is the merchant's: a payer key gets FORBIDDEN for it.
    const forbidden = await gql(PayerAsksForRedirect, { shortCode: request.shortCode }, payerKey);
    expect(forbidden.errors?.map((e) => e.extensions?.["code"])).toEqual(["FORBIDDEN"]);
  });

  it("refuses a redirectUrl outside the allowed list with INVALID_REDIRECT_URL, and a shortCode naming nothing with REQUEST_NOT_FOUND", async () => {
    const merchant = await buildMerchant();
    const refused = await gql(
      CreateRequest,
      { input: { merchantId: merchant.merchantId, asset: "NZD", amount: 300, redirectUrl: "https://evil.test/" } },
      merchant.apiKey,
    );
    expect(refused.data!.requestCreate).toMatchObject({ code: "INVALID_REDIRECT_URL" });
    const missing = await gql(ByShortCode, { shortCode: "PR-222-222" }, merchant.apiKey);
    expect(missing.errors?.map((e) => e.extensions?.["code"])).toEqual(["REQUEST_NOT_FOUND"]);
  });
});
