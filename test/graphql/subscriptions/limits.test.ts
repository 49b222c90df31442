import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMerchant, type TestMerchant } from "../../factories.js";
import { STREAM_LEASE_MS } from "../../../src/transport/stream-slots.js";
import { startApiProcess } from "../../service-processes.js";
import { until } from "../../until.js";
import { openStream, ownLoopbackAddress, type Stream } from "./sse.js";

/** The contract's defaults, which the spawned processes run with. */
const PER_KEY = 20;
const PER_ADDRESS = 50;

const servers: { kill: () => void }[] = [];
afterAll(() => servers.forEach((server) => server.kill()));

let a: string;
let b: string;
beforeAll(async () => {
  const [first, second] = await Promise.all([startApiProcess(), startApiProcess()]);
  servers.push(first, second);
  [a, b] = [first.base, second.base];
});

/** Opens `count` streams of `owner` on `base` from `address`, each answered 200. */
async function openMany(count: number, base: string, owner: TestMerchant, address: string): Promise<Stream[]> {
  const streams = Array.from({ length: count }, () => openStream(base, owner.apiKey, address));
  const statuses = await Promise.all(streams.map(async (stream) => (await stream.opened).status));
  expect(statuses).toEqual(Array(count).fill(200));
  return streams;
}

/** Asserts a new stream is refused as the contract says: 429, Retry-After, RATE_LIMIT_EXCEEDED naming what is full. */
async function expectRefused(base: string, owner: TestMerchant, address: string, full: "API key" | "client address") {
  const stream = openStream(base, owner.apiKey, address);
  const { status, headers } = await stream.opened;
  if (status === 200) stream.close();
  expect(status).toBe(429);
  await stream.ended();
  expect(Number(headers["retry-after"])).toBeGreaterThanOrEqual(1);
  const [error] = (
    JSON.parse(/^data: (.*)$/m.exec(stream.refusal())![1]!) as { errors: { message: string; extensions: object }[] }
  ).errors;
  expect(error?.extensions).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
  expect(error?.message).toContain(`This ${full} already has`);
}

/** Whether a new stream of `owner` opens now (it is closed again at once). */
async function opens(base: string, owner: TestMerchant, address: string): Promise<boolean> {
  const stream = openStream(base, owner.apiKey, address);
  const { status } = await stream.opened;
  stream.close();
  return status === 200;
}

describe("paymentRequestChanged: open streams per key and per address", () => {
  it(`a key holds at most ${PER_KEY} streams across API processes; a closed one frees its place at once`, async () => {
    const merchant = await buildMerchant();
    const address = ownLoopbackAddress();
    const streams = [
      ...(await openMany(PER_KEY / 2, a, merchant, address)),
      ...(await openMany(PER_KEY / 2, b, merchant, address)),
    ];
    await expectRefused(a, merchant, address, "API key");
    await expectRefused(b, merchant, address, "API key");

    // The client goes away: its place is given back when the server sees the socket close.
    streams.pop()!.close();
    await until(
      () => opens(a, merchant, address),
      (opened) => opened,
      5_000,
      "a new stream to open after one was closed",
    );
    streams.forEach((stream) => stream.close());
  });

  it(`a client address holds at most ${PER_ADDRESS} streams, whatever keys they use`, async () => {
    const [first, second, third] = await Promise.all([buildMerchant(), buildMerchant(), buildMerchant()]);
    const address = ownLoopbackAddress();
    const streams = [
      ...(await openMany(PER_KEY, a, first, address)),
      ...(await openMany(PER_KEY, b, second, address)),
      ...(await openMany(PER_ADDRESS - 2 * PER_KEY, a, third, address)),
    ];
    // The third key has room; the address has none.
    await expectRefused(b, third, address, "client address");
    // The same key from another address is not affected.
    expect(await opens(a, third, ownLoopbackAddress())).toBe(true);
    streams.forEach((stream) => stream.close());
  });

  it("the places of a process that died lapse with their lease", async () => {
    const merchant = await buildMerchant();
    const address = ownLoopbackAddress();
    const doomed = await startApiProcess();
    servers.push(doomed);
    const streams = [
      ...(await openMany(PER_KEY / 2, a, merchant, address)),
      ...(await openMany(PER_KEY / 2, doomed.base, merchant, address)),
    ];
    doomed.kill();
    // The process never said goodbye: its places stay taken until their lease lapses.
    await expectRefused(a, merchant, address, "API key");
    // Its places lapse one by one (each with its own lease); take each as it comes free.
    const freed: Stream[] = [];
    await until(
      async () => {
        const stream = openStream(a, merchant.apiKey, address);
        if ((await stream.opened).status === 200) freed.push(stream);
        return freed.length;
      },
      (count) => count >= PER_KEY / 2,
      STREAM_LEASE_MS + 10_000,
      "the places held by the killed process to lapse (the number taken again is shown)",
    );
    streams.push(...freed);
    // The live process renewed its own leases meanwhile: only the dead one's half came free.
    await expectRefused(a, merchant, address, "API key");
    streams.forEach((stream) => stream.close());
  });
});
