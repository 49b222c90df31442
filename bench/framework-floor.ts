/**
 * `npm run bench:floor`: what the HTTP and GraphQL frameworks cost a call before the service does
 * anything, in this process with no sockets: a bare graphql-yoga answering a one-field query with a
 * constant, against a bare Hono route answering the same as JSON (the REST routes' framework).
 * Prints the CPU time (user + system) per call of each, sequential calls after a warm-up, as the
 * median of five runs taken in turn. It bounds what GraphQL can cost against REST: whatever the
 * service does, a GraphQL call costs at least the difference.
 */
import { createSchema, createYoga } from "graphql-yoga";
import { Hono } from "hono";

const CALLS = Number(process.env.FLOOR_CALLS ?? 10_000);
const yoga = createYoga({
  schema: createSchema({ typeDefs: "type Query { hello(id: ID): String }", resolvers: { Query: { hello: () => "world" } } }),
  logging: false,
  landingPage: false,
  graphiql: false,
  // As the service runs it (graphql/yoga.ts): its body is bounded before Yoga sees it.
  maxRequestBodySize: false,
});
const hono = new Hono().get("/hello", (c) => c.json({ hello: "world" }));
const body = JSON.stringify({ query: "query($id: ID) { hello(id: $id) }", variables: { id: "1" } });
const calls = {
  "graphql-yoga": () =>
    yoga.handleRequest(
      new Request("http://floor/graphql", { method: "POST", headers: { "content-type": "application/json" }, body }),
      {},
    ),
  Hono: () => hono.fetch(new Request("http://floor/hello?id=1")),
};
type Framework = keyof typeof calls;

/** CPU µs per call over `n` sequential calls; stops at the first wrong answer. */
async function cpuPerCall(framework: Framework, n: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const answer = await calls[framework]();
    const text = await answer.text();
    if (answer.status !== 200 || !text.includes('"world"')) throw new Error(`${framework} answered ${answer.status} ${text}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const frameworks = Object.keys(calls) as Framework[];
for (const framework of frameworks) await cpuPerCall(framework, CALLS / 2); // warm-up
const runs = new Map<Framework, number[]>(frameworks.map((framework) => [framework, []]));
for (let run = 0; run < 5; run++)
  for (const framework of frameworks) runs.get(framework)!.push(await cpuPerCall(framework, CALLS));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
const [yogaUs, honoUs] = frameworks.map((framework) => median(runs.get(framework)!));
console.log(`framework floor (${CALLS.toLocaleString("en")} calls × 5, CPU per call, median; Node ${process.version}):`);
console.log(`  graphql-yoga, one constant field   ${yogaUs!.toFixed(0).padStart(4)} µs`);
console.log(`  Hono, the same as JSON              ${honoUs!.toFixed(0).padStart(4)} µs`);
console.log(`  a GraphQL call costs at least ${(yogaUs! - honoUs!).toFixed(0)} µs more than a REST call`);
