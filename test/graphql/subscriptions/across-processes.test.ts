import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMerchant, buildRequest, type TestMerchant } from "../../factories.js";
import { startApiProcess } from "../../service-processes.js";
import { openStream, type Change } from "./sse.js";

const servers: { kill: () => void }[] = [];
async function startApi(): Promise<string> {
  const api = await startApiProcess();
  servers.push(api);
  return api.base;
}

/**
 * A subscription that fails loudly: `opened` rejects unless the server answers 200, and an error
 * payload or an end of the stream before `stop()` fails every wait and `stop()`.
 */
function subscribe(base: string, apiKey: string) {
  const stream = openStream(base, apiKey);
  return {
    ...stream,
    opened: stream.opened.then(({ status }) => {
      if (status !== 200) throw new Error(`the subscription was refused: HTTP ${status} ${stream.refusal()}`);
    }),
    async stop() {
      try {
        await stream.heardWithin(() => true, 0); // throws the stream's failure, if any
      } finally {
        stream.close();
      }
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
  });
});
