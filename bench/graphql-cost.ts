/**
 * What each piece of the GraphQL endpoint costs a call (`--only=graphql-cost`, and the full run):
 * the same `paymentRequest` read and `requestCreate` through Yoga with the schema alone, then with
 * each of the endpoint's plugins added in their order, up to the whole service, beside the REST
 * twins on the whole service. Every step is an app of one process of its own
 * (bench/graphql-cost-server.ts) on a port of its own; runs of the steps take turns, the order
 * reversed each round, and each reads that process's CPU per call, at 16 connections.
 */
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Options } from "autocannon";
import { createBody, gqlCreate, gqlInfo, type Bench } from "./calls.js";
import { call, load, run, type LoadTiming } from "./load.js";
import { startHelper } from "./processes.js";

export interface GraphQLCost {
  steps: string[];
  /** CPU µs per call of each step's app, by operation (the median of the rounds); REST's under the step "REST". */
  cpuMicros: Record<string, Record<string, number>>;
}

const TWINS = { paymentRequest: "requests.info", requestCreate: "requests.create" } as const;
const CONNECTIONS = 16;

export async function measureGraphQLCost(bench: Bench, env: NodeJS.ProcessEnv, timing: LoadTiming, rounds: number) {
  const sample = await call<{ requestId: string }>(`${bench.api}/api/requests.create`, {
    method: "POST",
    headers: bench.headers,
    body: createBody(bench.merchantId),
  });
  const post =
    (body: string) =>
    (port: number): Options => ({
      url: `http://127.0.0.1:${port}/graphql`,
      connections: CONNECTIONS,
      method: "POST",
      headers: bench.headers,
      body,
    });
  const operations: Record<string, (port: number) => Options> = {
    paymentRequest: post(gqlInfo(sample.requestId)),
    requestCreate: post(gqlCreate(bench.merchantId)),
  };
  const rest: Record<string, (port: number) => Options> = {
    "requests.info": (port) => ({
      url: `http://127.0.0.1:${port}/api/requests.info?requestId=${sample.requestId}`,
      connections: CONNECTIONS,
      headers: bench.headers,
    }),
    "requests.create": (port) => ({
      url: `http://127.0.0.1:${port}/api/requests.create`,
      connections: CONNECTIONS,
      method: "POST",
      headers: bench.headers,
      body: createBody(bench.merchantId),
    }),
  };

  const server = startHelper("bench/graphql-cost-server.ts", [], { ...env, LOG_LEVEL: "silent" });
  try {
    const { steps, ports } = JSON.parse(await firstLine(server)) as { steps: string[]; ports: number[] };
    const runs = [
      ...steps.flatMap((step, index) =>
        Object.entries(operations).map(([operation, options]) => ({ step, operation, options: options(ports[index]!) })),
      ),
      ...Object.entries(rest).map(([operation, options]) => ({ step: "REST", operation, options: options(ports.at(-1)!) })),
    ];
    // A new process's first calls of a path compile it: a longer warm-up before any measured run.
    for (const { options } of runs) await run(options, FIRST_WARMUP_SECONDS);
    const measured = runs.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [...runs.keys()] : [...runs.keys()].reverse();
      for (const index of order) {
        const { cpuMicrosPerCall } = await load(runs[index]!.options, timing, server.pid);
        measured[index]!.push(cpuMicrosPerCall!);
      }
    }
    const cpuMicros: GraphQLCost["cpuMicros"] = {};
    runs.forEach(({ step, operation }, index) => {
      // The median of the rounds: a run that met a major collection or a neighbour's burst weighs nothing.
      const values = [...measured[index]!].sort((a, b) => a - b);
      (cpuMicros[step] ??= {})[operation] = Math.round(values[Math.floor(values.length / 2)]!);
    });
    const cost = { steps, cpuMicros };
    printCost(cost);
    return cost;
  } finally {
    server.kill("SIGKILL");
  }
}

const FIRST_WARMUP_SECONDS = 2;

/** The child's first line of output, within a minute. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error("bench: graphql-cost-server did not listen within 60 s")), 60_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`bench: graphql-cost-server stopped (exit code ${code}) before it listened`)));
  });
}

/** Each step's CPU per call and what it added to the one before, then the whole service against REST. */
function printCost({ steps, cpuMicros }: GraphQLCost) {
  const cell = (now: number, before: number | undefined) =>
    `${String(now).padStart(5)} µs` +
    (before === undefined ? "      " : ` ${now >= before ? "+" : "−"}${String(Math.abs(now - before)).padStart(4)}`);
  console.log(`  ${"step".padEnd(28)} ${"paymentRequest".padEnd(17)} requestCreate`);
  steps.forEach((step, index) => {
    const before = index === 0 ? undefined : cpuMicros[steps[index - 1]!]!;
    const cells = Object.keys(TWINS).map((operation) => cell(cpuMicros[step]![operation]!, before?.[operation]));
    console.log(`  ${step.padEnd(28)} ${cells.join("    ")}`);
  });
  const [schemaAlone, whole] = [cpuMicros[steps[0]!]!, cpuMicros[steps.at(-1)!]!];
  for (const [operation, twin] of Object.entries(TWINS)) {
    const restMicros = cpuMicros["REST"]![twin]!;
    console.log(
      `  ${operation}: the whole service ${whole[operation]} µs, REST ${twin} ${restMicros} µs, GraphQL − REST ` +
        `${whole[operation]! - restMicros} µs (with the schema alone ${schemaAlone[operation]! - restMicros} µs)`,
    );
  }
}
