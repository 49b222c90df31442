/**
 * Throughput and latency of create and info on both transports and on the baseline, and of
 * create→pay sequences, at one connection count; with the serving process's CPU per call.
 */
import type { Options } from "autocannon";
import { createBody, gqlCreate, gqlInfo, gqlPay, payBody, type Bench } from "./calls.js";
import { call, load, run, type Context } from "./load.js";
import { record } from "./report.js";

/** Create then pay (then read), over one transport: each pay needs a new request. */
function createPayCycles(bench: Bench, connections: number, transport: "rest" | "graphql", withInfo = false): Options {
  const rest = transport === "rest";
  return {
    url: bench.api,
    connections,
    requests: [
      {
        method: "POST",
        path: rest ? "/api/requests.create" : "/graphql",
        headers: bench.headers,
        body: rest ? createBody(bench.merchantId) : gqlCreate(bench.merchantId),
        onResponse: (_s, body, context: Context) => {
          const parsed = JSON.parse(body) as { requestId: string } & { data: { requestCreate: { id: string } } };
          context.id = rest ? parsed.requestId : parsed.data.requestCreate.id;
        },
      },
      {
        method: "POST",
        path: rest ? "/api/requests.pay" : "/graphql",
        headers: bench.payerHeaders,
        setupRequest: (req, context: Context) => ({ ...req, body: rest ? payBody(context.id!) : gqlPay(context.id!) }),
      },
      ...(withInfo
        ? [
            {
              method: "GET" as const,
              headers: bench.headers,
              setupRequest: (req: object, context: Context) => ({ ...req, path: `/api/requests.info?requestId=${context.id}` }),
            },
          ]
        : []),
    ],
  };
}

/** Unmeasured seconds of every row once before a process's first measured run (bench/tracing.ts does the same). */
const FIRST_WARM_UP_SECONDS = 3;

/**
 * Measures every row at `c` connections. With `cold`, the processes have served none of these calls
 * yet: each row first runs unmeasured for FIRST_WARM_UP_SECONDS, as a row's own warm-up is too short
 * for V8 and Prisma to compile the paths a process takes for the first time, and the first row
 * measured would pay for all the others.
 */
export async function measureThroughput(bench: Bench, c: number, { cold }: { cold: boolean }): Promise<void> {
  const { api, baseline, headers, merchantId, timing, pids } = bench;
  const sample = await call<{ requestId: string }>(`${api}/api/requests.create`, {
    method: "POST",
    headers,
    body: createBody(merchantId),
  });
  const post = (url: string, body: string): Options => ({ url, method: "POST", headers, body, connections: c });
  const info = (url: string): Options => ({
    url: `${url}/api/requests.info?requestId=${sample.requestId}`,
    headers,
    connections: c,
  });
  /** A row served by the API, with its CPU per call (`perCycle` calls make a cycle), or by the baseline. */
  const onApi = (key: string, section: string, operation: string, options: Options, perCycle = 1) => ({
    options,
    measure: async () => record(key, section, operation, c, await load(options, timing, pids.api), { perCycle, cpuOf: "API" }),
  });
  const onBaseline = (key: string, operation: string, options: Options) => ({
    options,
    measure: async () => record(key, "baseline", operation, c, await load(options, timing, pids.baseline), { cpuOf: "baseline" }),
  });

  const rows = [
    onApi("rest.create", "REST", "requests.create", post(`${api}/api/requests.create`, createBody(merchantId))),
    onApi("rest.info", "REST", "requests.info", info(api)),
    onApi("rest.create-pay-info", "REST", "create→pay→info cycles", createPayCycles(bench, c, "rest", true), 3),
    onApi("rest.create-pay", "REST", "create→pay cycles", createPayCycles(bench, c, "rest"), 2),
    onApi("graphql.create-pay", "GraphQL", "create→pay cycles", createPayCycles(bench, c, "graphql"), 2),
    onApi("graphql.create", "GraphQL", "requestCreate", post(`${api}/graphql`, gqlCreate(merchantId))),
    onApi("graphql.info", "GraphQL", "paymentRequest", post(`${api}/graphql`, gqlInfo(sample.requestId))),
    onBaseline("baseline.create", "create", post(`${baseline}/api/requests.create`, createBody(merchantId))),
    onBaseline("baseline.info", "info", info(baseline)),
  ];
  if (cold) for (const row of rows) await run(row.options, FIRST_WARM_UP_SECONDS);
  for (const row of rows) await row.measure();
}
