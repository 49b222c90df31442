/**
 * What each piece of the GraphQL endpoint costs a call (`--only=graphql-cost`, and the full run):
 * the same `paymentRequest` read and `requestCreate` through Yoga with the schema alone, then with
 * each of the endpoint's plugins added in their order, up to the whole service, beside the REST
 * twins. Measured in a process of its own (bench/graphql-cost-steps.ts) without sockets, the steps
 * taking turns call by call: API CPU per call as the framework and the plugins cost it, without
 * what the sockets cost alike on every step.
 */
import { createBody, type Bench } from "./calls.js";
import { call } from "./load.js";
import { runScript } from "./processes.js";

export interface GraphQLCost {
  steps: string[];
  /** CPU µs per call of each step's app, by operation (the mean of the calls); REST's under the step "REST". */
  cpuMicros: Record<string, Record<string, number>>;
}

const TWINS = { paymentRequest: "requests.info", requestCreate: "requests.create" } as const;

export async function measureGraphQLCost(bench: Bench, env: NodeJS.ProcessEnv, calls: number): Promise<GraphQLCost> {
  const sample = await call<{ requestId: string }>(`${bench.api}/api/requests.create`, {
    method: "POST",
    headers: bench.headers,
    body: createBody(bench.merchantId),
  });
  const input = { apiKey: bench.headers["x-api-key"], merchantId: bench.merchantId, requestId: sample.requestId, calls };
  const output = await runScript(
    "bench/graphql-cost-steps.ts",
    [JSON.stringify(input)],
    { ...env, LOG_LEVEL: "silent" },
    600_000,
  );
  const cost = JSON.parse(output.trim().split("\n").at(-1)!) as GraphQLCost;
  printCost(cost);
  return cost;
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
