import { print } from "graphql";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { buildMerchant } from "../factories.js";
import { RequestChanges } from "../operations/dashboard.js";

/** An app of this file's own: closing its streams must not end other files' streams. */
const app = createApp();
afterAll(() => app.dispose());

/** The contract's default SUBSCRIPTIONS_PER_KEY. */
const PER_KEY = 20;

const subscribe = (apiKey: string) =>
  app.fetch(
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
});
