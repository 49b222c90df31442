/**
 * Holds one key's `paymentRequestChanged` streams in a process of its own, so that reading them
 * costs the process that times another tenant nothing. Usage:
 * `node --import tsx bench/floods/stream-holder.ts <base> <apiKey> <count>`.
 * Prints `{"statuses": [...]}` once every stream has answered, then `{"heardByAll": requestId}`
 * for each change every stream has heard, and `{"failure": message}` if a stream ends or fails.
 */
import { openChangeStream } from "../change-stream.js";

const [base = "", apiKey = "", count = "0"] = process.argv.slice(2);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const streams = Number(count);
const heard = new Map<string, number>();
const hear = (id: string) => {
  const times = (heard.get(id) ?? 0) + 1;
  heard.set(id, times);
  if (times === streams) print({ heardByAll: id });
};

const opened = await Promise.all(Array.from({ length: streams }, () => openChangeStream(base, apiKey, hear)));
print({ statuses: opened.map(({ status }) => status) });
for (const { status, ended } of opened)
  if (status === 200)
    ended.then(
      () => print({ failure: "a stream ended while it was held" }),
      (err: Error) => print({ failure: err.message }),
    );
