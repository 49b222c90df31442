import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestChanges } from "../operations/dashboard.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { startApiProcess } from "./harness.js";

const servers: { kill: () => void }[] = [];
async function startApi(): Promise<string> {
  const api = await startApiProcess();
  servers.push(api);
  return api.base;
}

interface Change {
  id: string;
  status: string;
}

/**
 * Subscribes over server-sent events and collects every change until stopped. It fails loudly:
 * `opened` rejects unless the server answers 200 with an event stream, and an error payload or an
 * end of the stream before `stop()` is kept as the subscription's failure, which every wait and
 * `stop()` throw.
 */
function subscribe(base: string, apiKey: string) {
  const events: Change[] = [];
  const abort = new AbortController();
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  let failure: Error | null = null;

  const opened = fetch(`${base}/graphql`, {
    method: "POST",
    signal: abort.signal,
    headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": apiKey },
    body: JSON.stringify({ query: print(RequestChanges), variables: {} }),
  }).then(async (response) => {
    if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      throw new Error(`the subscription was refused: HTTP ${response.status} ${await response.text()}`);
    }
    return response;
  });

  const done = opened
    .then(async (response) => {
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const lines = buffer.slice(0, end).split("\n");
          buffer = buffer.slice(end + 2);
          const event = lines
            .find((line) => line.startsWith("event:"))
            ?.slice(6)
            .trim();
          const data = lines
            .find((line) => line.startsWith("data:"))
            ?.slice(5)
            .trim();
          if (event === "complete") throw new Error("the server completed the subscription before the test stopped it");
          if (!data) continue; // a keep-alive comment
          const payload = JSON.parse(data) as { data?: { paymentRequestChanged: Change }; errors?: unknown[] };
          if (payload.errors) throw new Error(`the stream carried an error: ${data}`);
          if (payload.data) events.push(payload.data.paymentRequestChanged);
          notify();
        }
      }
      throw new Error("the stream ended before the test stopped it");
    })
    .catch((error: unknown) => {
      if (!abort.signal.aborted) failure = error instanceof Error ? error : new Error(String(error));
      notify();
    });

  /** Whether `predicate` holds of the events within `timeoutMs`, waking on each event (not polling). */
  async function heardWithin(predicate: (events: Change[]) => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (failure) throw failure;
      if (predicate(events)) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          listeners.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        listeners.add(wake);
      });
    }
  }

  return {
    events,
    opened,
    heardWithin,
    /** Waits until `predicate` holds of the events; past the deadline it fails, naming `what` and what was heard. */
    async heard(predicate: (events: Change[]) => boolean, what: string, timeoutMs = 10_000) {
      if (!(await heardWithin(predicate, timeoutMs))) {
        throw new Error(`Waited ${timeoutMs} ms for ${what}; heard only ${JSON.stringify(events)}`);
      }
    },
    async stop() {
      abort.abort();
      await done;
      if (failure) throw failure;
    },
  };
}

type Subscriber = ReturnType<typeof subscribe>;

let a: string;
let b: string;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  [a, b, merchant, other] = await Promise.all([startApi(), startApi(), buildMerchant(), buildMerchant()]);
});
afterAll(() => servers.forEach((server) => server.kill()));

/** A REST call to the second API process (not the one the subscribers listen on), as `owner`. */
const call = (owner: TestMerchant, operation: string, body: object) =>
  fetch(`${b}/api/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": owner.apiKey },
    body: JSON.stringify(body),
  });

/**
 * A stream opens before the server has subscribed to Redis, so a subscriber is live once it hears
 * a change of its own merchant: cancels probe requests of `owner` until it hears one of them.
 * Returns the probes' ids (an echo of an earlier probe may still arrive later).
 */
async function confirmLive(subscriber: Subscriber, owner: TestMerchant, timeoutMs = 15_000): Promise<Set<string>> {
  const probes = new Set<string>();
  const heardProbe = (events: Change[]) => events.some((event) => probes.has(event.id));
  const deadline = Date.now() + timeoutMs;
  while (!heardProbe(subscriber.events)) {
    if (Date.now() > deadline) {
      throw new Error(
        `the subscriber of merchant ${owner.merchantId} heard none of its ${probes.size} probes in ${timeoutMs} ms`,
      );
    }
    const { request: probe } = await buildRequest({ merchant: owner });
    probes.add(probe.id);
    expect((await call(owner, "requests.cancel", { requestId: probe.id })).status).toBe(200);
    // A live subscriber hears it at once; one not yet listening never will, so another probe goes out.
    await subscriber.heardWithin(heardProbe, 500);
  }
  return probes;
}

describe("paymentRequestChanged over SSE", () => {
  it("delivers changes made through another API process, and only to the request's merchant", async () => {
    // Both at once on a freshly started process, as two dashboards would.
    const mine = subscribe(a, merchant.apiKey);
    const theirs = subscribe(a, other.apiKey);
    await Promise.all([mine.opened, theirs.opened]);
    const [, theirProbes] = await Promise.all([confirmLive(mine, merchant), confirmLive(theirs, other)]);

    const { request: toPay } = await buildRequest({ merchant });
    const { request: toCancel } = await buildRequest({ merchant });
    const payment = await call(merchant, "requests.pay", { requestId: toPay.id, ledger: "test.uplink", authorization: "x" });
    expect(payment.status).toBe(200);
    expect((await call(merchant, "requests.cancel", { requestId: toCancel.id })).status).toBe(200);

    // A late echo of a probe may still arrive; only these two requests are asserted.
    const ofThese = () => mine.events.filter((e) => e.id === toPay.id || e.id === toCancel.id);
    await mine.heard(() => ofThese().length >= 2, "the payment and the cancellation");
    expect(ofThese().map(({ id, status }) => ({ id, status }))).toEqual([
      { id: toPay.id, status: "PAID" },
      { id: toCancel.id, status: "CANCELLED" },
    ]);

    // The other merchant hears none of it. A change of its own request, made after those two,
    // travels the same channel to the same process; once `theirs` has heard it, it has heard
    // everything sent before it, and that change must be all it heard besides its probes.
    const { request: theirOwn } = await buildRequest({ merchant: other });
    expect((await call(other, "requests.cancel", { requestId: theirOwn.id })).status).toBe(200);
    await theirs.heard((events) => events.some((e) => e.id === theirOwn.id), "the other merchant's own change");
    expect(theirs.events.filter((e) => !theirProbes.has(e.id)).map(({ id, status }) => ({ id, status }))).toEqual([
      { id: theirOwn.id, status: "CANCELLED" },
    ]);
    await Promise.all([mine.stop(), theirs.stop()]);
  }, 40_000);
});
