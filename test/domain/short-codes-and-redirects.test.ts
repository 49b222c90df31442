import { describe, expect, it } from "vitest";
import { pool } from "../../src/db.js";
import { allowRedirects } from "../../src/domain/merchants/redirects.js";
import { createRequest, isAllowedRedirect } from "../../src/domain/requests/create.js";
import { getRequest } from "../../src/domain/requests/info.js";
import { newShortCode, normalizeShortCode } from "../../src/domain/requests/request-code.js";
import { expectCode } from "../expect-error.js";
import { buildMerchant, buildRequest, operator, payer } from "../factories.js";

const SHORT_CODE = /^PR-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{3}-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{3}$/;

describe("short codes", () => {
  it("are PR- and two groups of three characters that cannot be mistaken for one another", () => {
    const codes = Array.from({ length: 2000 }, newShortCode);
    for (const code of codes) expect(code).toMatch(SHORT_CODE);
    // Every character of the alphabet turns up, and none of 0, 1, I, L, O.
    expect(new Set(codes.join("").replace(/PR|-/g, "")).size).toBe(31);
  });

  it("are read as a person may type them: any case, spaces or dashes, with or without PR", () => {
    for (const typed of ["PR-7KX-2QD", "pr-7kx-2qd", "7KX2QD", " 7kx 2qd ", "PR7KX2QD", "pr 7kx-2qd"])
      expect(normalizeShortCode(typed), typed).toBe("PR-7KX-2QD");
    // PR as the first two of six characters is a code, not the prefix.
    expect(normalizeShortCode("PRX2QD")).toBe("PR-PRX-2QD");
    for (const typed of ["PR-7KX-2Q", "PR-7KX-2QD4", "PR-0KX-2QD", "PR-IKX-2QD", "", "PR--", "PR-7KX-2QÐ"])
      expect(normalizeShortCode(typed), typed).toBeNull();
  });

  it("is given to every new request, unique, and finds it for payer and merchant keys alike", async () => {
    const merchant = await buildMerchant();
    const requests = (await Promise.all(Array.from({ length: 20 }, () => buildRequest({ merchant })))).map(
      (built) => built.request,
    );
    const codes = requests.map((request) => request.shortCode);
    for (const code of codes) expect(code).toMatch(SHORT_CODE);
    expect(new Set(codes).size).toBe(codes.length);

    const [first] = requests;
    const typed = first!.shortCode.toLowerCase().replaceAll("-", " ");
    expect((await getRequest(payer, { shortCode: typed })).id).toBe(first!.id);
    expect((await getRequest(merchant.ctx, { shortCode: first!.shortCode })).id).toBe(first!.id);
    // Another merchant's key sees nothing by it.
    const other = await buildMerchant();
    await expectCode(getRequest(other.ctx, { shortCode: first!.shortCode }), "REQUEST_NOT_FOUND");
  });

  it("answers REQUEST_NOT_FOUND for a code that names nothing, whatever its format, and INVALID_REQUEST_ID for none", async () => {
    for (const shortCode of ["PR-222-222", "nonsense", "PR-0OO-111", "x".repeat(64)])
      await expectCode(getRequest(payer, { shortCode }), "REQUEST_NOT_FOUND");
    for (const shortCode of [" ", "x".repeat(65), 7, null, ["PR-222-222"]])
      await expectCode(getRequest(payer, { shortCode }), "INVALID_REQUEST_ID");
    // One way of naming the request, not two.
    const { request } = await buildRequest();
    await expectCode(getRequest(payer, { requestId: request.id, shortCode: request.shortCode }), "INVALID_REQUEST_ID");
  });
});

describe("redirectUrl", () => {
  it("is accepted when it starts with one of the merchant's allowed redirect URLs, and read back by the merchant", async () => {
    const merchant = await buildMerchant();
    await allowRedirects(operator, {
      merchantId: merchant.merchantId,
      urls: ["https://shop.example/thanks", "https://other.example/"],
    });
    for (const redirectUrl of [
      "https://shop.example/thanks",
      "https://shop.example/thanks/42?order=7",
      "https://other.example/x",
    ]) {
      const request = await createRequest(merchant.ctx, {
        merchantId: merchant.merchantId,
        asset: "NZD",
        amount: 1,
        redirectUrl,
      });
      expect(request.redirectUrl).toBe(redirectUrl);
      expect((await getRequest(merchant.ctx, { requestId: request.id })).redirectUrl).toBe(redirectUrl);
    }
  });

  it("is refused with INVALID_REDIRECT_URL, creating nothing, when it starts with none of them", async () => {
    const merchant = await buildMerchant();
    const count = async () =>
      (
        await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM payment_request WHERE merchant_id = $1", [
          merchant.merchantId,
        ])
      ).rows[0]!.n;
    const create = (redirectUrl: unknown) =>
      createRequest(merchant.ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 1, redirectUrl });
    // None allowed yet: any redirectUrl is refused.
    await expectCode(create("https://shop.example/thanks"), "INVALID_REDIRECT_URL");
    await allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["https://shop.example/thanks"] });
    for (const redirectUrl of [
      "https://shop.example.evil.test/thanks",
      "http://shop.example/thanks",
      "https://shop.example:8443/thanks",
      "https://shop.example/other",
      "https://evil.test/?https://shop.example/thanks",
      "javascript:alert(1)",
      "not a url",
      "x".repeat(2049),
      7,
      true,
      ["https://shop.example/thanks"],
      { url: "https://shop.example/thanks" },
      "https://shop.example/thanks\u0000",
    ])
      await expectCode(create(redirectUrl), "INVALID_REDIRECT_URL");
    expect(await count()).toBe(0);
  });

  it("matches whole origins and then the start of the path and query", () => {
    const allowed = ["https://shop.example", "https://b.example/return?x=1"];
    expect(isAllowedRedirect("https://shop.example/anything", allowed)).toBe(true);
    expect(isAllowedRedirect("https://SHOP.example/anything", allowed)).toBe(true);
    expect(isAllowedRedirect("https://shop.example.evil.test/", allowed)).toBe(false);
    expect(isAllowedRedirect("https://user@shop.example.evil.test/", allowed)).toBe(false);
    expect(isAllowedRedirect("https://b.example/return?x=1&y=2", allowed)).toBe(true);
    expect(isAllowedRedirect("https://b.example/return?x=2", allowed)).toBe(false);
    expect(isAllowedRedirect("https://b.example/return", allowed)).toBe(false);
    expect(isAllowedRedirect("https://shop.example/", [])).toBe(false);
    expect(isAllowedRedirect("https://shop.example/", ["not a url"])).toBe(false);
  });

  it("allowed URLs are set by an operator only, replaced whole, and checked", async () => {
    const merchant = await buildMerchant();
    await expectCode(allowRedirects(merchant.ctx, { merchantId: merchant.merchantId, urls: [] }), "FORBIDDEN");
    await expectCode(
      allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["ftp://x.example/"] }),
      "INVALID_REDIRECT_URL",
    );
    await expectCode(
      allowRedirects(operator, { merchantId: "00000000-0000-4000-8000-000000000000", urls: [] }),
      "MERCHANT_NOT_FOUND",
    );
    expect(
      await allowRedirects(operator, { merchantId: merchant.merchantId, urls: ["https://a.example/", "https://a.example/"] }),
    ).toEqual({
      merchantId: merchant.merchantId,
      allowedRedirectUrls: ["https://a.example/"],
    });
    expect((await allowRedirects(operator, { merchantId: merchant.merchantId, urls: [] })).allowedRedirectUrls).toEqual([]);
  });
});
