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
import { createBody, gqlCreate, gqlInfo, type Bench } from "./calls.js";
import { call, run } from "./load.js";
import { cpuMicrosPerCall, readCpuTicks } from "./proc.js";
import { helperLines, startHelper } from "./processes.js";

type ByOperation = Record<string, Record<string, number>>;

export interface GraphQLCost {
  steps: string[];
  /** In the process, one call at a time: the median call's CPU µs of each step by operation, REST's under "REST". */
  oneAtATime: ByOperation;
  /** Over HTTP: CPU µs per call of the schema alone, the whole service and REST, over all their runs. */
  served: ByOperation;
  /** Half the range of the runs' own CPU µs per call, alike: how far one run strayed. */
  servedSpread: ByOperation;
}

/** Calls a step's operations in the process; and over HTTP, how long each variant runs unmeasured first, then in each of `rounds` runs (seconds). */
export interface CostTiming {
  calls: number;
  warmup: number;
  seconds: number;
  rounds: number;
  ticksPerSecond: number;
}

const TWINS = { paymentRequest: "requests.info", requestCreate: "requests.create" } as const;
const CONNECTIONS = 16;
/** Calls a second, from all connections: under what the slowest step (requestCreate) serves on our two cores. */
const RATE = 800;

export async function measureGraphQLCost(bench: Bench, env: NodeJS.ProcessEnv, timing: CostTiming): Promise<GraphQLCost> {
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
    const input = { apiKey: bench.headers["x-api-key"], merchantId: bench.merchantId, requestId, calls: timing.calls };
    child.stdin!.write(`calls ${JSON.stringify(input)}\n`);
    const oneAtATime = (await lines.next("called", 0, "the graphql-cost steps' calls", 900_000)) as ByOperation;
    const ends = [0, steps.length - 1].map((index) => ({ step: steps[index]!, port: ports[index]! }));
    const { served, servedSpread } = await alternate(variantsOf(bench, ends, requestId), child.pid!, timing);
    const cost = { steps, oneAtATime, served, servedSpread };
    printCost(cost);
    return cost;
  } finally {
    child.kill("SIGTERM");
  }
}

interface Variant {
  step: string;
  operation: string;
  options: Options;
}

/** The given steps' two GraphQL operations, and the REST twins on the last one's port (the whole service). */
function variantsOf(bench: Bench, steps: { step: string; port: number }[], requestId: string): Variant[] {
  const at = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;
  const post = (url: string, body: string): Options => ({ url, method: "POST", headers: bench.headers, body });
  const whole = steps.at(-1)!.port;
  return [
    ...steps.flatMap(({ step, port }) => [
      { step, operation: "paymentRequest", options: post(at(port, "/graphql"), gqlInfo(requestId)) },
      { step, operation: "requestCreate", options: post(at(port, "/graphql"), gqlCreate(bench.merchantId)) },
    ]),
    {
      step: "REST",
      operation: TWINS.paymentRequest,
      options: { url: at(whole, `/api/requests.info?requestId=${requestId}`), headers: bench.headers },
    },
    {
      step: "REST",
      operation: TWINS.requestCreate,
      options: post(at(whole, "/api/requests.create"), createBody(bench.merchantId)),
    },
  ];
}

/** Every variant warmed up once, then `rounds` runs of each in turn: CPU µs per call over its runs, and their spread. */
async function alternate(variants: Variant[], pid: number, timing: CostTiming) {
  const once = async ({ options }: Variant, seconds: number) => {
    const before = await readCpuTicks(pid);
    const result = await run({ ...options, connections: CONNECTIONS, overallRate: RATE }, seconds);
    return { ticks: (await readCpuTicks(pid)) - before, calls: result["2xx"] };
  };
  for (const variant of variants) await once(variant, timing.warmup);
  const runs = variants.map(() => [] as { ticks: number; calls: number }[]);
  for (let round = 0; round < timing.rounds; round++)
    for (const [index, variant] of variants.entries()) runs[index]!.push(await once(variant, timing.seconds));
  const perCall = (ticks: number, calls: number) => cpuMicrosPerCall(0, ticks, calls, timing.ticksPerSecond)!;
  const served: ByOperation = {};
  const servedSpread: ByOperation = {};
  variants.forEach(({ step, operation }, index) => {
    const each = runs[index]!.map(({ ticks, calls }) => perCall(ticks, calls));
    const sum = (of: "ticks" | "calls") => runs[index]!.reduce((total, one) => total + one[of], 0);
    (served[step] ??= {})[operation] = perCall(sum("ticks"), sum("calls"));
    (servedSpread[step] ??= {})[operation] = Math.round((Math.max(...each) - Math.min(...each)) / 2);
  });
  return { served, servedSpread };
}

/** Each step's CPU per call one at a time and what it added to the one before; then over HTTP, the ends against REST. */
function printCost({ steps, oneAtATime, served, servedSpread }: GraphQLCost) {
  const µs = (value: number) => `${String(value).padStart(5)} µs`;
  const change = (now: number, before: number | undefined) =>
    before === undefined ? "      " : ` ${now >= before ? "+" : "−"}${String(Math.abs(now - before)).padStart(4)}`;
  console.log(`  In the process, one call at a time (the median call)`);
  console.log(`  ${"step".padEnd(28)} ${"paymentRequest".padEnd(17)} requestCreate`);
  for (const [index, step] of [...steps, "REST"].entries()) {
    const before = index === 0 || step === "REST" ? undefined : oneAtATime[steps[index - 1]!]!;
    const operations = step === "REST" ? Object.values(TWINS) : Object.keys(TWINS);
    const cells = operations.map(
      (operation, i) =>
        µs(oneAtATime[step]![operation]!) + change(oneAtATime[step]![operation]!, before?.[Object.keys(TWINS)[i]!]),
    );
    console.log(`  ${(step === "REST" ? "REST twins" : step).padEnd(28)} ${cells.join("    ")}`);
  }
  console.log(`  Over HTTP, ${RATE} calls a second from ${CONNECTIONS} connections (± half the runs' range)`);
  for (const [operation, twin] of Object.entries(TWINS)) {
    const alone = served[steps[0]!]![operation]!;
    const whole = served[steps.at(-1)!]![operation]!;
    const rest = served["REST"]![twin]!;
    const spread = (step: string, of: string) => `±${servedSpread[step]![of]}`;
    console.log(
      `  ${operation}: the schema alone ${alone} µs ${spread(steps[0]!, operation)}, the whole service ${whole} µs ` +
        `${spread(steps.at(-1)!, operation)}, REST ${twin} ${rest} µs ${spread("REST", twin)}: GraphQL − REST ${whole - rest} µs, ` +
        `the schema alone − REST ${alone - rest} µs, the whole service − the schema alone ${whole - alone} µs`,
    );
  }
}
