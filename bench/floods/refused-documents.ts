/**
 * Floods an API with GraphQL documents refused before they run, from a process of its own, so that
 * making and sending them takes nothing from the process that times another tenant (the bench, or a test).
 * Usage: `node --import tsx bench/floods/refused-documents.ts <base> <apiKey>`; then, on standard
 * input, `flood` starts a turn and `pause` ends it. On standard output: `{"underway": true}` once a
 * turn is under way (and, the first time, past the key's 20 documents a minute), and after each
 * pause `{"statuses": [[status, count], …]}`, counted over every turn so far.
 */
import { graphqlCaller, print, runTurns } from "./turns.js";

const [base = "", apiKey = ""] = process.argv.slice(2);

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

const caller = graphqlCaller(base, apiKey, CONNECTIONS);
const nextDocument = refusedDocuments();

/** A turn: PER_SECOND documents a second, at most CONNECTIONS at a time; ends once those sent are answered. */
function flood() {
  const sending = new Set<Promise<void>>();
  const underwayAt = Math.max(25, caller.answered() + 8);
  let inFlight = 0;
  let told = false;
  const tick = setInterval(() => {
    for (let i = 0; i < PER_SECOND / 100 && inFlight < CONNECTIONS; i++) {
      inFlight++;
      const sent: Promise<void> = caller.send(nextDocument()).then(() => {
        inFlight--;
        sending.delete(sent);
        if (!told && caller.answered() >= underwayAt) print({ underway: (told = true) });
      });
      sending.add(sent);
    }
  }, 10);
  return async () => {
    clearInterval(tick);
    await Promise.all(sending);
  };
}

await runTurns(flood, caller);
caller.close();
