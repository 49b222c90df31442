/**
 * The pay page's stylesheet and script (src/http/pay/static/): named by the page at an address
 * that carries their content's hash, served compressed, cached as immutable, and 304 to a matching
 * If-None-Match; the address without the hash (or another version's) answers the current file,
 * revalidated at each use.
 */
import { readFileSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../fixtures.js";
import { buildRequest } from "../factories.js";

const get = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://test${path}`, { headers }));
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
const onDisk = (file: string) => readFileSync(new URL(`../../src/http/pay/static/${file}`, import.meta.url));

/** The addresses an open request's page names its stylesheet and script by. */
let named: { css: string; js: string };

beforeAll(async () => {
  const { request } = await buildRequest();
  const page = await (await get(`/pay/${request.requestCode}`)).text();
  named = {
    css: /<link rel="stylesheet" href="([^"]+)">/.exec(page)![1]!,
    js: /<script type="module" src="([^"]+)">/.exec(page)![1]!,
  };
});

describe.each([
  ["css", "pay.css", "text/css; charset=utf-8"],
  ["js", "pay.js", "text/javascript; charset=utf-8"],
] as const)("the pay page's %s", (kind, file, type) => {
  it("is named by its content's hash and served as the file is, cached as immutable", async () => {
    expect(named[kind]).toMatch(new RegExp(`^/pay/assets/pay\\.[0-9a-f]{16}\\.${kind}$`));
    const answer = await get(named[kind]);
    expect([answer.status, answer.headers.get("content-type"), answer.headers.get("cache-control")]).toEqual([
      200,
      type,
      "public, max-age=31536000, immutable",
    ]);
    expect((await bytesOf(answer)).equals(onDisk(file))).toBe(true);
    // So does the address on the code-entry page, which has no script.
    expect(await (await get("/pay")).text()).toContain(named.css);
  });

  it("is brotli or gzip when the caller accepts it, the same content, with Vary: Accept-Encoding", async () => {
    const brotli = await get(named[kind], { "accept-encoding": "gzip, deflate, br" });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(await bytesOf(brotli)).equals(onDisk(file))).toBe(true);
    const gzipped = await get(named[kind], { "accept-encoding": "gzip" });
    expect([gzipped.headers.get("content-encoding"), gzipped.headers.get("vary")]).toEqual(["gzip", "Accept-Encoding"]);
    const compressed = await bytesOf(gzipped);
    expect(compressed.byteLength).toBeLessThan(onDisk(file).byteLength / 2);
    expect(gunzipSync(compressed).equals(onDisk(file))).toBe(true);
  });

  it("is 304 Not Modified without a body when If-None-Match names its ETag, with the page's security headers", async () => {
    const first = await get(named[kind], { "accept-encoding": "br" });
    const etag = first.headers.get("etag")!;
    const again = await get(named[kind], { "accept-encoding": "br", "if-none-match": etag });
    expect([again.status, await again.text(), again.headers.get("etag")]).toEqual([304, "", etag]);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    for (const answer of [first, again]) {
      expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    }
    expect((await get(named[kind], { "accept-encoding": "br", "if-none-match": '"other"' })).status).toBe(200);
  });

  it("is the current file, revalidated at each use, at an address without the hash or with another version's", async () => {
    for (const path of [`/pay/assets/${file}`, `/pay/assets/pay.0123456789abcdef.${kind}`]) {
      const answer = await get(path);
      expect([answer.status, answer.headers.get("cache-control")]).toEqual([200, "no-cache"]);
      expect((await bytesOf(answer)).equals(onDisk(file))).toBe(true);
      const etag = answer.headers.get("etag")!;
      expect((await get(path, { "if-none-match": etag })).status).toBe(304);
    }
  });
});

it("answers 404 for a file the pay page does not have", async () => {
  for (const path of ["/pay/assets/other.css", "/pay/assets/pay.html", "/pay/assets/..%2Fpage.ts"])
    expect((await get(path)).status).toBe(404);
});
