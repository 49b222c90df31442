/**
 * Floods an API with GraphQL documents refused before they run, from a process of its own, so that
 * making and sending them takes nothing from the process that times another tenant (the bench, or a test).
 * Usage: `node --import tsx bench/floods/refused-documents.ts <base> <apiKey>`; then, on standard
 * input, `flood` starts a turn and `pause` ends it. On standard output: `{"underway": true}` once a
 * turn is under way (and, the first time, past the key's 20 documents a minute), and after each
 * pause `{"statuses": [[status, count], …]}`, counted over every turn so far.
 */
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";

const [base = "", apiKey = ""] = process.argv.slice(2);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** This many documents a second, at most this many at a time (a slow answer slows it). */
const PER_SECOND = 200;
const CONNECTIONS = 4;

/**
 * Bodies of documents refused before they run, each as costly to read as the 64 KiB body allows,
 * and each different (a counter in a comment) so that no cache of parsed documents helps.
 */
function refusedDocuments() {
  const fill = (piece: (i: number) => string, bytes = 60_000) => {
    let text = "";
    for (let i = 0; text.length < bytes; i++) text += piece(i);
    return text;
  };
  const kinds = [
    // A syntax error at the very end: the whole document is read first.
    `{ ${fill((i) => `f${i}: paymentRequest(id: "${i}") { id status } `)} `,
    // Unknown fields, each one an error.
    `{ ${fill((i) => `nothing${i} `, 20_000)} }`,
    // Too deep, many times over.
    `{ ${fill((i) => `d${i}: transaction(id: "x") { ${"request { paidBy { ".repeat(6)} id ${"} } ".repeat(6)} } `)} }`,
    // Too costly.
    `{ ${fill((i) => `c${i}: paymentRequests(first: 100) { edges { node { id status payments { ledger } } } } `)} }`,
  ].map((query) => JSON.stringify(query).slice(1, -1));
  let n = 0;
  return () => `{"query":"# ${n++}\\n${kinds[n % kinds.length]}"}`;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const headers = { "content-type": "application/json", "x-api-key": apiKey };
const nextDocument = refusedDocuments();
const statuses = new Map<number, number>();
const answered = () => [...statuses.values()].reduce((sum, n) => sum + n, 0);

/** One document; its status, or 0 when the connection failed. */
const send = (body: string) =>
  new Promise<number>((resolve) => {
    const call = request(`${base}/graphql`, { agent, method: "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    });
    call.on("error", () => resolve(0)).end(body);
  });

let turn: { tick: NodeJS.Timeout; sending: Set<Promise<void>> } | null = null;

function flood() {
  const sending = new Set<Promise<void>>();
  const underwayAt = Math.max(25, answered() + 8);
  let inFlight = 0;
  let told = false;
  const tick = setInterval(() => {
    for (let i = 0; i < PER_SECOND / 100 && inFlight < CONNECTIONS; i++) {
      inFlight++;
      const sent: Promise<void> = send(nextDocument()).then((status) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        inFlight--;
        sending.delete(sent);
        if (!told && answered() >= underwayAt) print({ underway: (told = true) });
      });
      sending.add(sent);
    }
  }, 10);
  turn = { tick, sending };
}

async function pause() {
  if (!turn) return;
  clearInterval(turn.tick);
  await Promise.all(turn.sending);
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
