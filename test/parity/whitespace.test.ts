/**
 * Text parameters are trimmed, and an optional one that is empty once trimmed is not given (the
 * contract's revisions of 2026-11-26), on REST and GraphQL alike. A required one of only
 * whitespace is its INVALID_* code with a sentence, not a validator's raw message. Text nested at
 * any depth in a parameter no operation reads is still checked for U+0000.
 */
import { describe, expect, it } from "vitest";
import { allowRedirects } from "../../src/domain/merchants/redirects.js";
import { graphqlPost, rest } from "../fixtures.js";
import { buildMerchant, operator } from "../factories.js";

const BLANK = " \t\n ";
const OPTIONAL_TEXT = ["clientId", "externalReference", "description", "notifyUrl", "redirectUrl"] as const;

const graphqlCreate = (apiKey: string, input: Record<string, unknown>) =>
  graphqlPost(
    apiKey,
    `mutation($input: RequestCreateInput!) { requestCreate(input: $input) {
      __typename ... on PaymentRequest { id description externalReference notifyUrl redirectUrl clientId }
      ... on Error { code message } } }`,
    { input },
  );

describe("blank text parameters", () => {
  it.each(OPTIONAL_TEXT)("reads an optional %s of only whitespace as not given, on REST and GraphQL", async (name) => {
    const merchant = await buildMerchant();
    await allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["https://shop.example/"] });
    const base = { merchantId: merchant.merchantId, asset: "NZD", amount: 300 };

    const created = await rest("requests.create", { apiKey: merchant.apiKey, json: { ...base, [name]: BLANK } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const info = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId: created.body.requestId } });
    expect(info.body).not.toHaveProperty(name);

    const form = await rest("requests.create", { apiKey: merchant.apiKey, form: { ...base, amount: "300", [name]: BLANK } });
    expect(form.status, JSON.stringify(form.body)).toBe(200);

    const { body } = await graphqlCreate(merchant.apiKey, { ...base, [name]: BLANK });
    expect(body.data?.["requestCreate"]).toMatchObject({ __typename: "PaymentRequest", [name]: null });
  });

  it("trims the text it keeps", async () => {
    const merchant = await buildMerchant();
    const created = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 300, description: "  Flat white \n" },
    });
    expect(created.body.description).toBe("Flat white");
  });

  it.each([
    ["asset", "INVALID_ASSET"],
    ["merchantId", "INVALID_MERCHANT_ID"],
  ])("refuses a required %s of only whitespace with %s and a sentence", async (name, code) => {
    const merchant = await buildMerchant();
    const { status, body } = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 300, [name]: BLANK },
    });
    expect({ status, code: body.message }).toEqual({ status: 400, code });
    expect(body.reason).toMatch(new RegExp(`^${name} (is required|must)`));
    expect(body.reason).not.toMatch(/Too small|expected|>=/);
  });

  it("refuses U+0000 nested deeper than any parameter goes, in a parameter no operation reads", async () => {
    const merchant = await buildMerchant();
    const nested = (depth: number): unknown => (depth === 0 ? "a\u0000b" : [nested(depth - 1)]);
    for (const depth of [1, 9, 15]) {
      const { status, body } = await rest("requests.create", {
        apiKey: merchant.apiKey,
        json: { merchantId: merchant.merchantId, asset: "NZD", amount: 300, extra: nested(depth) },
      });
      expect({ depth, status, code: body.message }).toEqual({ depth, status: 400, code: "BAD_REQUEST" });
    }
  });
});
