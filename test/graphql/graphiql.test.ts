/**
 * GraphiQL's page module holds GraphiQL's scripts and styles (9 MB of JavaScript): an API with
 * GraphiQL off never loads it, and one with GraphiQL on loads it when a browser first asks for the
 * page, not at start.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { App } from "../../src/http/app.js";
import { createTestApp } from "../test-app.js";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@graphql-yoga/render-graphiql", async (importOriginal) => {
  loads.count += 1;
  return importOriginal();
});

const browserVisit = (app: App) => app.fetch(new Request("http://test/graphql", { headers: { accept: "text/html" } }));

// In this order: once loaded, a module stays loaded for the rest of the file.
describe("GraphiQL's page module", () => {
  it("is not loaded by an API with GraphiQL off, even when a browser asks for the page", async () => {
    const app = createTestApp({ graphiql: false });
    onTestFinished(() => app.dispose());
    const answer = await browserVisit(app);
    expect(await answer.text()).not.toMatch(/graphiql/i);
    expect(loads.count).toBe(0);
  });

  it("is loaded by an API with GraphiQL on when a browser first asks for the page, which is GraphiQL", async () => {
    const app = createTestApp({ graphiql: true });
    onTestFinished(() => app.dispose());
    expect(loads.count).toBe(0);
    const answer = await browserVisit(app);
    expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "text/html"]);
    expect(await answer.text()).toContain("YogaGraphiQL.renderYogaGraphiQL");
    expect(loads.count).toBe(1);
    await browserVisit(app);
    expect(loads.count).toBe(1);
  });
});

describe("GraphiQL's page, once loaded", () => {
  const visit = (app: App, headers: Record<string, string> = {}) =>
    app.fetch(new Request("http://test/graphql", { headers: { accept: "text/html", ...headers } }));

  it("is gzip (a quarter of its 9 MB) when the browser accepts it, as it is when not, and 304 by its ETag", async () => {
    const app = createTestApp({ graphiql: true });
    onTestFinished(() => app.dispose());
    const plain = await visit(app);
    const html = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(html.byteLength).toBeGreaterThan(5_000_000);

    const gzipped = await visit(app, { "accept-encoding": "gzip, deflate" });
    expect([gzipped.status, gzipped.headers.get("content-encoding"), gzipped.headers.get("content-type")]).toEqual([
      200,
      "gzip",
      "text/html",
    ]);
    const compressed = Buffer.from(await gzipped.arrayBuffer());
    expect(compressed.byteLength).toBeLessThan(html.byteLength / 3);
    expect(gunzipSync(compressed).equals(html)).toBe(true);
    expect(gzipped.headers.get("vary")).toMatch(/accept-encoding/i);
    // Revalidated at every visit: a 304 costs the browser nothing.
    expect(gzipped.headers.get("cache-control")).toBe("no-cache");

    const browser = await visit(app, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(browser.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await browser.arrayBuffer())).equals(html)).toBe(true);

    for (const [encoding, answer] of [
      ["identity", plain],
      ["gzip", gzipped],
      ["gzip, deflate, br, zstd", browser],
    ] as const) {
      const again = await visit(app, { "accept-encoding": encoding, "if-none-match": answer.headers.get("etag")! });
      expect([encoding, again.status, (await again.arrayBuffer()).byteLength]).toEqual([encoding, 304, 0]);
      expect(again.headers.get("etag")).toBe(answer.headers.get("etag"));
    }
  });

  it("is the same page for every visit of a process, rendered once", async () => {
    const app = createTestApp({ graphiql: true });
    onTestFinished(() => app.dispose());
    const etags = new Set<string | null>();
    for (let i = 0; i < 3; i++) etags.add((await visit(app, { "accept-encoding": "gzip" })).headers.get("etag"));
    expect([...etags]).toEqual([expect.stringMatching(/^"[\w-]+"$/)]);
    // A call to /graphql that is not a page is Yoga's, as before.
    const call = await app.fetch(
      new Request("http://test/graphql?query=%7B__typename%7D", { headers: { accept: "application/json" } }),
    );
    expect(call.headers.get("content-type")).toMatch(/application\/(graphql-response\+)?json/);
  });
});
