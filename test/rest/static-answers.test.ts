/**
 * The fixed answers the service serves (here the OpenAPI document): compressed when the caller
 * accepts it, validated by ETag, and unchanged otherwise. GraphiQL's page, which only an API with
 * GraphiQL on serves, is tested in test/graphql/graphiql.test.ts; the pay page's files in
 * test/pay/assets.test.ts.
 */
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { chosenEncoding } from "../../src/http/static-answer.js";
import { app } from "../fixtures.js";

const get = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://test${path}`, { headers }));
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe.each([["/api/openapi.json", "application/json", "no-cache"]])("GET %s", (path, type, cacheControl) => {
  it("is gzip when the caller accepts gzip, and the same content", async () => {
    const plain = await get(path);
    const gzipped = await get(path, { "accept-encoding": "gzip, deflate" });
    expect([gzipped.status, gzipped.headers.get("content-encoding"), gzipped.headers.get("content-type")]).toEqual([
      200,
      "gzip",
      type,
    ]);
    expect(gzipped.headers.get("vary")).toMatch(/accept-encoding/i);
    const compressed = await bytesOf(gzipped);
    const original = await bytesOf(plain);
    expect(compressed.byteLength).toBeLessThan(original.byteLength / 2);
    expect(Number(gzipped.headers.get("content-length"))).toBe(compressed.byteLength);
    expect(gunzipSync(compressed).equals(original)).toBe(true);
  });

  it("is brotli when the caller accepts it, as browsers do", async () => {
    const answer = await get(path, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(answer.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(await bytesOf(answer)).equals(await bytesOf(await get(path)))).toBe(true);
  });

  it("is sent as it is to a caller that accepts no compression, with the same cache headers", async () => {
    const callers: Record<string, string>[] = [{}, { "accept-encoding": "identity" }, { "accept-encoding": "gzip;q=0, br;q=0" }];
    for (const headers of callers) {
      const answer = await get(path, headers);
      expect([answer.status, answer.headers.get("content-encoding"), answer.headers.get("content-type")]).toEqual([
        200,
        null,
        type,
      ]);
      expect(answer.headers.get("cache-control")).toBe(cacheControl);
      expect(answer.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(answer.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    }
  });

  it("is 304 Not Modified, without a body, when If-None-Match names its ETag; 200 when it names another", async () => {
    for (const encoding of ["gzip", "identity"]) {
      const first = await get(path, { "accept-encoding": encoding });
      const etag = first.headers.get("etag")!;
      const again = await get(path, { "accept-encoding": encoding, "if-none-match": `"other", ${etag}` });
      expect([encoding, again.status, await again.text()]).toEqual([encoding, 304, ""]);
      expect([again.headers.get("etag"), again.headers.get("cache-control")]).toEqual([etag, cacheControl]);
      expect(again.headers.get("vary")).toMatch(/accept-encoding/i);
      expect((await get(path, { "accept-encoding": encoding, "if-none-match": '"other"' })).status).toBe(200);
    }
    // Each encoding is a representation of its own, with an ETag of its own.
    const [gzipTag, identityTag] = await Promise.all(
      ["gzip", "identity"].map(async (encoding) => (await get(path, { "accept-encoding": encoding })).headers.get("etag")),
    );
    expect(gzipTag).not.toBe(identityTag);
    expect((await get(path, { "if-none-match": gzipTag! })).status).toBe(200);
  });
});

describe("the encoding chosen from Accept-Encoding", () => {
  it.each([
    [null, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["GZIP", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0.1", "gzip"],
    ["gzip;q=0", "identity"],
    ["*", "br"],
    ["*, br;q=0", "gzip"],
    ["deflate", "identity"],
  ])("%j → %s", (header, encoding) => {
    expect(chosenEncoding(header)).toBe(encoding);
  });
});
