/**
 * What each piece of the GraphQL endpoint costs a call (`--only=graphql-cost`, and the full run):
 * the same `paymentRequest` read and `requestCreate` through Yoga with the schema alone, then with
 * each of the endpoint's plugins added in their order, up to the whole service, beside the REST
 * twins. Every step is an app of one serving process (bench/graphql-cost-steps.ts), measured twice:
 *
 * - in that process, one call at a time, the steps taking turns call by call with each call's CPU
 *   read around it, the median call of each: so each plugin gets its price, where runs of calls
 *   differ by more than one plugin costs; but a call that waits for Redis or PostgreSQL alone pays
 *   for the whole wake-up that calls under load share, and a collection's pause is left out;
 * - over HTTP, the schema alone and the whole service beside REST, each on its port, from 16
 *   connections at a fixed rate every step keeps up with (so that all batch alike; at full speed a
 *   cheaper step answers more calls per wake-up), in runs that take turns with the process's CPU
 *   read around each: what a server pays per call, give or take the runs' spread, which is printed.
 *
 * Only correct answers count.
 */
import type { Options } from "autocannon";
import { compareAlternating, type Compared, type VariantFigures } from "./alternating.js";
import { createBody, gqlCreate, gqlInfo, type Bench } from "./calls.js";
import { call, type LoadTiming } from "./load.js";
import { helperLines, startHelper } from "./processes.js";

type ByOperation = Record<string, Record<string, number>>;
type End = "schema alone" | "whole service";

export interface GraphQLCost {
  steps: string[];
  /** In the process, one call at a time: the median call's CPU µs of each step by operation, REST's under "REST". */
  oneAtATime: ByOperation;
  /** Over HTTP: each GraphQL operation on the schema alone and on the whole service. */
  served: Compared<End>;
  /** Over HTTP: the REST twins on the whole service. */
  servedRest: Compared<"whole service">;
}

const TWINS = { paymentRequest: "requests.info", requestCreate: "requests.create" } as const;
const CONNECTIONS = 16;
/** Calls a second, from all connections: under what the slowest step (requestCreate) serves on our two cores. */
const RATE = 800;

/** `calls` of each step's operations in the process; over HTTP, `rounds` runs of each (LoadTiming's warm-up and length). */
export async function measureGraphQLCost(
  bench: Bench,
  env: NodeJS.ProcessEnv,
  { calls, rounds, ...timing }: LoadTiming & { calls: number; rounds: number },
): Promise<GraphQLCost> {
  const { requestId } = await call<{ requestId: string }>(`${bench.api}/api/requests.create`, {
    method: "POST",
    headers: bench.headers,
    body: createBody(bench.merchantId),
  });
  const child = startHelper("bench/graphql-cost-steps.ts", [], { ...env, LOG_LEVEL: "silent" });
  try {
    const lines = helperLines(child);
    const { steps, ports } = (await lines.next("listening", 0, "the graphql-cost steps to listen")) as {
      steps: string[];
      ports: number[];
    };
    child.stdin!.write(
      `calls ${JSON.stringify({ apiKey: bench.headers["x-api-key"], merchantId: bench.merchantId, requestId, calls })}\n`,
    );
    const oneAtATime = (await lines.next("called", 0, "the graphql-cost steps' calls", 900_000)) as ByOperation;
    const at = (port: number) => ({ url: `http://127.0.0.1:${port}`, pid: child.pid! });
    const ends = { "schema alone": at(ports[0]!), "whole service": at(ports.at(-1)!) };
    const { graphql, rest } = operationsOf(bench, requestId);
    const options = { rounds, connections: CONNECTIONS };
    // REST's twins on the whole service only: the schema alone's app serves the same REST routes.
    const served = await compareAlternating("graphql-cost", ends, graphql, timing, options);
    const servedRest = await compareAlternating(
      "graphql-cost",
      { "whole service": ends["whole service"] },
      rest,
      timing,
      options,
    );
    const cost = { steps, oneAtATime, served, servedRest };
    printCost(cost);
    return cost;
  } finally {
    child.kill("SIGTERM");
  }
}

type Operations = Record<string, (url: string) => Options>;

/** The two GraphQL operations and their REST twins, at RATE from CONNECTIONS connections. */
function operationsOf(bench: Bench, requestId: string): { graphql: Operations; rest: Operations } {
  const fixed = { headers: bench.headers, connections: CONNECTIONS, overallRate: RATE };
  const post = (url: string, body: string): Options => ({ url, method: "POST", body, ...fixed });
  return {
    graphql: {
      paymentRequest: (url) => post(`${url}/graphql`, gqlInfo(requestId)),
      requestCreate: (url) => post(`${url}/graphql`, gqlCreate(bench.merchantId)),
    },
    rest: {
      [TWINS.paymentRequest]: (url) => ({ url: `${url}/api/requests.info?requestId=${requestId}`, ...fixed }),
      [TWINS.requestCreate]: (url) => post(`${url}/api/requests.create`, createBody(bench.merchantId)),
    },
  };
}

/** Each step's CPU per call one at a time and what it added to the one before; then over HTTP, the ends against REST. */
function printCost({ steps, oneAtATime, served, servedRest }: GraphQLCost) {
  const µs = (value: number) => `${String(value).padStart(5)} µs`;
  const change = (now: number, before: number | undefined) =>
    before === undefined ? "      " : ` ${now >= before ? "+" : "−"}${String(Math.abs(now - before)).padStart(4)}`;
  console.log(`  In the process, one call at a time (the median call)`);
  console.log(`  ${"step".padEnd(28)} ${"paymentRequest".padEnd(17)} requestCreate`);
  for (const [index, step] of [...steps, "REST"].entries()) {
    const before = index === 0 || step === "REST" ? undefined : oneAtATime[steps[index - 1]!]!;
    const cells = Object.entries(TWINS).map(([operation, twin]) => {
      const now = oneAtATime[step]![step === "REST" ? twin : operation]!;
      return µs(now) + change(now, before?.[operation]);
    });
    console.log(`  ${(step === "REST" ? "REST twins" : step).padEnd(28)} ${cells.join("    ")}`);
  }
  console.log(`  Over HTTP, ${RATE} calls a second from ${CONNECTIONS} connections (± half the runs' range)`);
  const figure = ({ cpu, cpuSpread }: VariantFigures) => ({
    cpu: cpu ?? Number.NaN,
    text: `${cpu ?? "?"} µs ±${cpuSpread ?? "?"}`,
  });
  for (const [operation, twin] of Object.entries(TWINS)) {
    const [alone, whole, rest] = [
      figure(served[operation]!["schema alone"]),
      figure(served[operation]!["whole service"]),
      figure(servedRest[twin]!["whole service"]),
    ];
    console.log(
      `  ${operation}: the schema alone ${alone.text}, the whole service ${whole.text}, REST ${twin} ${rest.text}: ` +
        `GraphQL − REST ${whole.cpu - rest.cpu} µs, the schema alone − REST ${alone.cpu - rest.cpu} µs, ` +
        `the whole service − the schema alone ${whole.cpu - alone.cpu} µs`,
    );
  }
}
