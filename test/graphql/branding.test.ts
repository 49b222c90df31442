/**
 * A merchant's pay page branding through GraphQL: a display name, a logo (PNG, JPEG or WebP of at
 * most 64 KB, its bytes of its type; never SVG) and an accent colour of at least 4.5:1 against
 * white; and the pay page that shows them, its logo served from this origin with its checked type.
 */
import { describe, expect, it } from "vitest";
import { buildMerchant, buildPayerKey, buildRequest } from "../factories.js";
import { app, graphqlPostTo } from "../fixtures.js";
import { db } from "../prisma.js";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

const UPDATE = `mutation ($input: MerchantBrandingInput!) {
  merchantBrandingUpdate(input: $input) {
    __typename
    ... on MerchantBranding { displayName accentColor logoUrl }
    ... on Error { code message }
  }
}`;

async function update(apiKey: string, input: object) {
  const { body } = await graphqlPostTo(app, apiKey, UPDATE, { input });
  const data = body.data as { merchantBrandingUpdate: Record<string, unknown> } | null;
  return data?.merchantBrandingUpdate ?? { ...body };
}

describe("pay page branding", () => {
  it("refuses an SVG, an oversized or mislabelled logo, a low-contrast or malformed colour and a long name, changing nothing; takes 64 KB", async () => {
    const merchant = await buildMerchant();
    const refusals: [object, string][] = [
      [
        {
          logo: dataUrl("image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
        },
        "INVALID_LOGO",
      ],
      [{ logo: dataUrl("image/png", Buffer.concat([PNG, Buffer.alloc(64 * 1024)])) }, "INVALID_LOGO"],
      [{ logo: dataUrl("image/png", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])) }, "INVALID_LOGO"],
      [{ logo: dataUrl("image/gif", Buffer.from("GIF89a")) }, "INVALID_LOGO"],
      [{ logo: "https://127.0.0.1/logo.png" }, "INVALID_LOGO"],
      [{ accentColor: "#ffff00" }, "INVALID_COLOR"],
      [{ accentColor: "#777777" }, "INVALID_COLOR"],
      [{ accentColor: "teal" }, "INVALID_COLOR"],
      [{ displayName: "x".repeat(61) }, "BAD_REQUEST"],
      // One refused part refuses the whole change.
      [{ displayName: "Fine", accentColor: "#eeeeee" }, "INVALID_COLOR"],
    ];
    for (const [input, code] of refusals)
      expect(await update(merchant.apiKey, input), JSON.stringify(input).slice(0, 80)).toMatchObject({ code });
    expect(await db.merchantBranding.findUnique({ where: { merchantId: merchant.merchantId } })).toBeNull();
    expect(await update(await buildPayerKey(), { displayName: "Not mine" })).toMatchObject({ code: "FORBIDDEN" });
    // 64 KB exactly is a logo.
    const largest = Buffer.concat([PNG, Buffer.alloc(64 * 1024 - PNG.length)]);
    expect(await update(merchant.apiKey, { logo: dataUrl("image/png", largest) })).toMatchObject({
      __typename: "MerchantBranding",
    });
  });

  it("shows the display name, logo and accent colour on the pay page, the logo served with its type, and removes the logo when told", async () => {
    const merchant = await buildMerchant();
    const set = await update(merchant.apiKey, {
      displayName: "  Corner Cafe  ",
      accentColor: "#0B5E5A",
      logo: dataUrl("image/png", PNG),
    });
    expect(set).toMatchObject({ __typename: "MerchantBranding", displayName: "Corner Cafe", accentColor: "#0b5e5a" });
    const logoUrl = String(set["logoUrl"]);
    expect(logoUrl).toMatch(new RegExp(`/pay/logos/${merchant.merchantId}/[0-9a-f]{16}$`));

    const { request } = await buildRequest({ merchant });
    const page = await (await app.fetch(new Request(`http://test/pay/${request.requestCode}`))).text();
    expect(page).toContain('<p class="merchant">Corner Cafe</p>');
    const logoPath = new URL(logoUrl).pathname;
    expect(page).toContain(`<img class="logo" src="${logoPath}"`);
    expect(page).toContain('<link rel="stylesheet" href="/pay/accent/0b5e5a.css">');
    const logo = await app.fetch(new Request(`http://test${logoPath}`));
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(logo.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(PNG);
    const accent = await app.fetch(new Request("http://test/pay/accent/0b5e5a.css"));
    expect([accent.headers.get("content-type"), await accent.text()]).toEqual([
      "text/css; charset=utf-8",
      ":root{--accent:#0b5e5a}\n",
    ]);
    expect((await app.fetch(new Request("http://test/pay/accent/0b5e5a;x.css"))).status).toBe(404);

    // Another merchant's id with this hash names nothing; a change keeps what it does not name.
    const other = await buildMerchant();
    expect((await app.fetch(new Request(`http://test${logoPath.replace(merchant.merchantId, other.merchantId)}`))).status).toBe(
      404,
    );
    expect(await update(merchant.apiKey, { logo: null })).toMatchObject({
      displayName: "Corner Cafe",
      accentColor: "#0b5e5a",
      logoUrl: null,
    });
    expect((await app.fetch(new Request(`http://test${logoPath}`))).status).toBe(404);
    const plain = await (await app.fetch(new Request(`http://test/pay/${request.requestCode}`))).text();
    expect(plain).not.toContain('class="logo"');
  });
});
