/**
 * Throughput and latency of create and info on both transports and on the baseline, and of
 * create→pay sequences, at one connection count; with the serving process's CPU per call.
 */
import type { Options } from "autocannon";
import { createBody, gqlCreate, gqlInfo, gqlPay, payBody, type Bench } from "./calls.js";
import { call, load, type Context } from "./load.js";
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
          const parsed = JSON.parse(body);
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

export async function measureThroughput(bench: Bench, c: number): Promise<void> {
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
  /** Measures and records a run served by the API, with its CPU per call; `perCycle` calls make a cycle. */
  const onApi = async (key: string, section: string, operation: string, options: Options, perCycle = 1) =>
    record(key, section, operation, c, await load(options, timing, pids.api), { perCycle, cpuOf: "API" });
  const onBaseline = async (key: string, operation: string, options: Options) =>
    record(key, "baseline", operation, c, await load(options, timing, pids.baseline), { cpuOf: "baseline" });

  await onApi("rest.create", "REST", "requests.create", post(`${api}/api/requests.create`, createBody(merchantId)));
  await onApi("rest.info", "REST", "requests.info", info(api));
  await onApi("rest.create-pay-info", "REST", "create→pay→info cycles", createPayCycles(bench, c, "rest", true), 3);
  await onApi("rest.create-pay", "REST", "create→pay cycles", createPayCycles(bench, c, "rest"), 2);
  await onApi("graphql.create-pay", "GraphQL", "create→pay cycles", createPayCycles(bench, c, "graphql"), 2);
  await onApi("graphql.create", "GraphQL", "requestCreate", post(`${api}/graphql`, gqlCreate(merchantId)));
  await onApi("graphql.info", "GraphQL", "paymentRequest", post(`${api}/graphql`, gqlInfo(sample.requestId)));
  await onBaseline("baseline.create", "create", post(`${baseline}/api/requests.create`, createBody(merchantId)));
  await onBaseline("baseline.info", "info", info(baseline));
}
