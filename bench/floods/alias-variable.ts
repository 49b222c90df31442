/**
 * Floods an API with the operation of issue 35 from a process of its own: 20 aliases of
 * `paymentRequests(first: $n)` with `n = 100` and a list under every node, two calls in flight at
 * a time. Its cost hangs on a variable, so a limit that reads only literals counts each list once.
 * Usage: `node --import tsx bench/floods/alias-variable.ts <base> <apiKey>`; then, on standard
 * input, `flood` starts a turn and `pause` ends it. On standard output: `{"underway": true}` once
 * a turn's first call is answered, and after each pause `{"statuses": [[status, count], …]}`,
 * counted over every turn so far.
 */
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";

const [base = "", apiKey = ""] = process.argv.slice(2);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** Calls in flight at once, as measured (../shared/notes/measured-2026-11-26.md). */
const IN_FLIGHT = 2;
const ALIASES = 20;

const node = "id description refunds { id } activities { action } webhookEvents { attempts { number } } paidBy { id }";
const body = JSON.stringify({
  query: `query($n: Int) { ${Array.from(
    { length: ALIASES },
    (_, i) => `a${i}: paymentRequests(first: $n) { edges { node { ${node} } } }`,
  ).join(" ")} }`,
  variables: { n: 100 },
});

const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const headers = { "content-type": "application/json", "x-api-key": apiKey };
const statuses = new Map<number, number>();

/** One call, read to its end; its status, or 0 when the connection failed. */
const send = () =>
  new Promise<number>((resolve) => {
    const call = request(`${base}/graphql`, { agent, method: "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    });
    call.on("error", () => resolve(0)).end(body);
  });

let turn: { stop: () => void; loops: Promise<void>[] } | null = null;

function flood() {
  let stopped = false;
  let told = false;
  const loop = async () => {
    while (!stopped) {
      const status = await send();
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (!told) print({ underway: (told = true) });
    }
  };
  turn = { stop: () => (stopped = true), loops: Array.from({ length: IN_FLIGHT }, loop) };
}

async function pause() {
  if (!turn) return;
  turn.stop();
  await Promise.all(turn.loops);
  turn = null;
  print({ statuses: [...statuses] });
}

const commands = createInterface({ input: process.stdin });
for await (const command of commands) {
  if (command === "flood") flood();
  else if (command === "pause") await pause();
}
await pause();
agent.destroy();
