import { print } from "graphql";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test-app.js";
import { buildMerchant } from "../factories.js";
import { RequestChanges } from "../operations/dashboard.js";

/** An app of this file's own: closing its streams must not end other files' streams. */
const app = createTestApp();
afterAll(() => app.dispose());

/** The contract's default SUBSCRIPTIONS_PER_KEY. */
const PER_KEY = 20;

const subscribe = async (apiKey: string, through = app) =>
  through.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": apiKey },
      body: JSON.stringify({ query: print(RequestChanges), variables: {} }),
    }),
  );

describe("paymentRequestChanged streams at shutdown", () => {
  it("closeStreams ends every open stream with a complete event and gives back their places", async () => {
    const merchant = await buildMerchant();
    const streams = await Promise.all(Array.from({ length: PER_KEY }, () => subscribe(merchant.apiKey)));
    expect(streams.map((response) => response.status)).toEqual(Array(PER_KEY).fill(200));
    const refused = await subscribe(merchant.apiKey);
    expect(refused.status).toBe(429);
    await refused.text();

    await app.closeStreams();
    for (const body of await Promise.all(streams.map((response) => response.text()))) {
      expect(body).toMatch(/event: complete\n/);
    }
    const again = await Promise.all(Array.from({ length: PER_KEY }, () => subscribe(merchant.apiKey)));
    expect(again.map((response) => response.status)).toEqual(Array(PER_KEY).fill(200));
    await app.closeStreams();
    await Promise.all(again.map((response) => response.text()));
  });

  it("stop() leaves no stream open: one still taking its place when the process begins to stop is refused, not opened", async () => {
    const stopping = createTestApp();
    try {
      const merchant = await buildMerchant();
      const opening = Array.from({ length: 5 }, () => subscribe(merchant.apiKey, stopping));
      await stopping.stop();
      for (const response of await Promise.all(opening)) {
        // Refused as the service stopping, or (had one opened before) ended with `complete`; never left open.
        const body = await Promise.race([
          response.text(),
          new Promise<string>((resolve) => setTimeout(() => resolve("still open after 5 s"), 5_000).unref()),
        ]);
        if (response.status === 200) expect(body).toMatch(/event: complete\n/);
        else
          expect({ status: response.status, body }).toMatchObject({
            status: 503,
            body: expect.stringContaining("EXTERNAL_SERVICE_ERROR"),
          });
      }
    } finally {
      await stopping.dispose();
    }
  });
});
