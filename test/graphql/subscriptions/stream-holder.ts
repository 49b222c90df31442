/**
 * Holds subscription streams in a process of its own, so that reading them costs the test's
 * process nothing (the flood test measures latency from there). Usage:
 * `node --import tsx test/graphql/subscriptions/stream-holder.ts <base> <apiKey> <localAddress> <count>`.
 * Prints one JSON line with the streams' statuses, then one per change that every stream has heard
 * (`{"heardByAll": requestId}`), and `{"failure": message}` if a stream fails.
 */
import { openStream, type Stream } from "./sse.js";

const [base = "", apiKey = "", address = "", count = "0"] = process.argv.slice(2);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const heard = new Map<string, number>();
const streams: Stream[] = Array.from({ length: Number(count) }, () =>
  openStream(base, apiKey, address, {}, ({ id }) => {
    const times = (heard.get(id) ?? 0) + 1;
    heard.set(id, times);
    if (times === streams.length) print({ heardByAll: id });
  }),
);
print({ statuses: await Promise.all(streams.map(async (stream) => (await stream.opened).status)) });
// A stream that fails or ends is reported; the test fails on it.
await Promise.race(streams.map((stream) => stream.ended(2 ** 31 - 1)));
print({ failure: "a stream ended before the test stopped it" });
