import { describe, expect, it } from "vitest";
import { app } from "../fixtures.js";
import { buildMerchant } from "../factories.js";
import { createTestApp } from "../test-app.js";

const post = (headers: Record<string, string>, body: string) =>
  app.fetch(new Request("http://test/graphql", { method: "POST", headers, body }));

describe("GraphQL browser safety", () => {
  it("lets only configured origins call /graphql from a browser", async () => {
    // vitest.config.ts sets CORS_ORIGINS=https://dashboard.example for the suite.
    const preflight = (origin: string) =>
      app.fetch(
        new Request("http://test/graphql", {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type,x-api-key",
          },
        }),
      );
    const allowed = await preflight("https://dashboard.example");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://dashboard.example");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("x-api-key");
    const refused = await preflight("https://evil.example");
    expect(refused.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");

    // The answer itself tells the browser whether the page may read it.
    const answer = (origin: string) =>
      post({ "content-type": "application/json", origin }, JSON.stringify({ query: "{ __typename }" }));
    const readable = await answer("https://dashboard.example");
    expect(readable.status).toBe(200);
    expect(readable.headers.get("access-control-allow-origin")).toBe("https://dashboard.example");
    const unreadable = await answer("https://evil.example");
    expect(unreadable.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");
  });

  it("sends no CORS header to any origin when CORS_ORIGINS is empty (the default), nor to an unlisted one", async () => {
    const noneAllowed = createTestApp({}, { corsOrigins: [] });
    const twoAllowed = createTestApp({}, { corsOrigins: ["https://dashboard.example", "https://admin.example"] });
    try {
      for (const [service, origin] of [
        [noneAllowed, "https://dashboard.example"],
        [noneAllowed, "https://evil.example"],
        [twoAllowed, "https://evil.example"],
      ] as const) {
        const preflight = await service.fetch(
          new Request("http://test/graphql", {
            method: "OPTIONS",
            headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "x-api-key" },
          }),
        );
        const call = await service.fetch(
          new Request("http://test/graphql", {
            method: "POST",
            headers: { origin, "content-type": "application/json" },
            body: JSON.stringify({ query: "{ __typename }" }),
          }),
        );
        for (const answer of [preflight, call]) {
          expect(answer.headers.get("access-control-allow-origin"), origin).toBeNull();
          expect(answer.headers.get("access-control-allow-headers"), origin).toBeNull();
        }
      }
      const listed = await twoAllowed.fetch(
        new Request("http://test/graphql", { method: "OPTIONS", headers: { origin: "https://admin.example" } }),
      );
      expect(listed.headers.get("access-control-allow-origin")).toBe("https://admin.example");
    } finally {
      await Promise.all([noneAllowed.dispose(), twoAllowed.dispose()]);
    }
  });

  it("refuses simple cross-site requests that could be forged (CSRF): they carry no key", async () => {
    const forged = await post({ "content-type": "text/plain" }, JSON.stringify({ query: "{ __typename }" }));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ errors: [{ extensions: { code: "KEY_NOT_AUTHORIZED" } }] });
  });

  it("refuses bodies over 128 KiB", async () => {
    const response = await post(
      { "content-type": "application/json" },
      JSON.stringify({ query: `{ __typename }`, pad: "x".repeat(132_000) }),
    );
    expect(response.status).toBe(413);
    const within = await post(
      { "content-type": "application/json" },
      JSON.stringify({ query: `{ __typename }`, pad: "x".repeat(120_000) }),
    );
    expect(within.status).not.toBe(413);
  });

  it("refuses queries nested deeper than the limit before running them", async () => {
    const merchant = await buildMerchant();
    const deep = `{ transaction(id: "${crypto.randomUUID()}") { ${"request { paidBy { ".repeat(6)} id ${"} } ".repeat(6)} } }`;
    const response = await post(
      { "content-type": "application/json", "x-api-key": merchant.apiKey },
      JSON.stringify({ query: deep }),
    );
    const body = (await response.json()) as { errors?: { message: string }[]; data?: unknown };
    expect(body.errors?.[0]?.message).toMatch(/depth/i);
  });
});
