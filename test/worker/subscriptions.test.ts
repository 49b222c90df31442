import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestChanges } from "../operations/dashboard.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { startApiProcess, until } from "./harness.js";

const servers: { kill: () => void }[] = [];
async function startApi(): Promise<string> {
  const api = await startApiProcess();
  servers.push(api);
  return api.base;
}

/** Subscribes over server-sent events and collects every payload until aborted. */
function subscribe(base: string, apiKey: string) {
  const events: { id: string; status: string }[] = [];
  const abort = new AbortController();
  let opened = false;
  const done = (async () => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      signal: abort.signal,
      headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": apiKey },
      body: JSON.stringify({ query: print(RequestChanges), variables: {} }),
    });
    opened = true;
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const data = buffer
          .slice(0, end)
          .split("\n")
          .find((line) => line.startsWith("data:"));
        buffer = buffer.slice(end + 2);
        const payload = data
          ? (JSON.parse(data.slice(5)) as { data?: { paymentRequestChanged: { id: string; status: string } } })
          : null;
        if (payload?.data) events.push(payload.data.paymentRequestChanged);
      }
    }
  })().catch(() => undefined);
  return { events, isOpen: () => opened, stop: () => (abort.abort(), done) };
}

let a: string;
let b: string;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  [a, b, merchant, other] = await Promise.all([startApi(), startApi(), buildMerchant(), buildMerchant()]);
});
afterAll(() => servers.forEach((server) => server.kill()));

describe("paymentRequestChanged over SSE", () => {
  it("delivers changes made through another API process, and only to the request's merchant", async () => {
    const mine = subscribe(a, merchant.apiKey);
    const theirs = subscribe(a, other.apiKey);
    await until(() => mine.isOpen() && theirs.isOpen(), Boolean, 10_000);
    // The stream opens before the server has subscribed to Redis: cancel probe requests until the
    // subscriber hears one, so the assertions below start from a live subscription.
    const call = (operation: string, body: object) =>
      fetch(`${b}/api/${operation}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
        body: JSON.stringify(body),
      });
    await until(
      async () => {
        const { request: probe } = await buildRequest({ merchant });
        await call("requests.cancel", { requestId: probe.id });
        await new Promise((resolve) => setTimeout(resolve, 200));
        return mine.events.length;
      },
      (heard) => heard > 0,
      15_000,
    );
    mine.events.length = 0;

    const { request: toPay } = await buildRequest({ merchant });
    const { request: toCancel } = await buildRequest({ merchant });
    expect((await call("requests.pay", { requestId: toPay.id, ledger: "test.uplink", authorization: "x" })).status).toBe(200);
    expect((await call("requests.cancel", { requestId: toCancel.id })).status).toBe(200);

    // A late echo of a probe may still arrive; only these two requests are asserted.
    const ofThese = () => mine.events.filter((e) => e.id === toPay.id || e.id === toCancel.id);
    await until(
      () => ofThese().length,
      (n) => n >= 2,
      10_000,
    );
    expect(ofThese().map(({ id, status }) => ({ id, status }))).toEqual([
      { id: toPay.id, status: "PAID" },
      { id: toCancel.id, status: "CANCELLED" },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(theirs.events).toEqual([]);
    await Promise.all([mine.stop(), theirs.stop()]);
  }, 40_000);
});
