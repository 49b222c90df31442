/**
 * The graphql-cost section's serving process (bench/graphql-cost.ts drives it and reads its CPU):
 * the API's app made once per step, each on a loopback port of its own. The steps are Yoga with the
 * schema alone, then with the GraphQL endpoint's plugins added one at a time in their order, so
 * that the last is the whole service, whose REST routes are the twins. Prints one JSON line once
 * every step listens, `{"listening":{"steps":[…],"ports":[…]}}`; then, for the line
 * `calls {"apiKey","merchantId","requestId","calls"}` on its input, calls every step's app in this
 * process one call at a time, the steps taking turns call by call with each call's CPU read around
 * it, and prints the median of each, `{"called":{step:{operation:µs}}}`.
 */
import { serve } from "@hono/node-server";
import { createInterface } from "node:readline";
import { loadApiConfig } from "../src/api/config.js";
import { openDatabase } from "../src/db.js";
import type { NamedPlugin } from "../src/graphql/yoga.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/logger.js";
import { openRedis, waitForRedis } from "../src/transport/redis.js";
import { createBody, gqlCreate, gqlInfo } from "./calls.js";

const config = loadApiConfig();
const logger = createLogger({ level: "silent" }, "bench");
openDatabase(config.db, logger);
const redis = openRedis(config.redis, logger);
if (!(await waitForRedis(redis, config.redis, 30_000, logger))) throw new Error("bench: Redis did not answer");

let names: string[] = [];
const appWith = (kept: (all: NamedPlugin[]) => NamedPlugin[]) => createApp({ config, logger, redis, graphqlPlugins: kept });
const keptAt = (step: number) => (all: NamedPlugin[]) => ((names = all.map(({ name }) => name)), all.slice(0, step));
// serve() installs @hono/node-server's Response globally: the apps are made after it, as the API makes its own (src/api/server.ts).
const first = listen((request, env) => apps[0]!.fetch(request, env));
const apps = [appWith(keptAt(0))];
for (let step = 1; step <= names.length; step++) apps.push(appWith(keptAt(step)));
const steps = ["schema alone", ...names.map((name) => `+ ${name}`)];
const ports = [await first, ...(await Promise.all(apps.slice(1).map((app) => listen(app.fetch))))];
console.log(JSON.stringify({ listening: { steps, ports } }));

// A wrong answer is reported as the bench's failure (helperLines), not left for the bench to wait out.
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.startsWith("calls ")) continue;
  const called = await callEach(JSON.parse(line.slice(6)) as CallsInput).catch((error: Error) => ({ failure: error.message }));
  console.log(JSON.stringify("failure" in called ? called : { called }));
}

function listen(fetch: Parameters<typeof serve>[0]["fetch"]): Promise<number> {
  return new Promise((resolve) => serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info) => resolve(info.port)));
}

interface CallsInput {
  apiKey: string;
  merchantId: string;
  requestId: string;
  calls: number;
}

/** Every step's two operations and the REST twins, `calls` times each in turn; the median CPU µs of a call. */
async function callEach(input: CallsInput) {
  const headers = { "x-api-key": input.apiKey, "content-type": "application/json" };
  const graphql = (body: string) => () => new Request("http://bench/graphql", { method: "POST", headers, body });
  /** Each operation's call, and what its answer must hold to count. */
  const operations = {
    paymentRequest: { call: graphql(gqlInfo(input.requestId)), holds: `"id":"${input.requestId}"` },
    requestCreate: { call: graphql(gqlCreate(input.merchantId)), holds: '"status":"NEW"' },
    "requests.info": {
      call: () => new Request(`http://bench/api/requests.info?requestId=${input.requestId}`, { headers }),
      holds: `"requestId":"${input.requestId}"`,
    },
    "requests.create": {
      call: () =>
        new Request("http://bench/api/requests.create", { method: "POST", headers, body: createBody(input.merchantId) }),
      holds: '"requestId"',
    },
  };
  const variants = [
    ...apps.flatMap((app, index) =>
      (["paymentRequest", "requestCreate"] as const).map((operation) => ({ step: steps[index]!, app, operation })),
    ),
    ...(["requests.info", "requests.create"] as const).map((operation) => ({ step: "REST", app: apps.at(-1)!, operation })),
  ];
  /** One call's CPU µs; throws at an answer that is not right. */
  const cpuOfCall = async (app: (typeof apps)[number], operation: keyof typeof operations) => {
    const { call, holds } = operations[operation];
    const start = process.cpuUsage();
    const answer = await app.fetch(call());
    const text = await answer.text();
    const used = process.cpuUsage(start);
    if (answer.status !== 200 || !text.includes(holds) || text.includes('"errors"'))
      throw new Error(`bench: ${operation} answered ${answer.status} ${text.slice(0, 300)}`);
    return used.user + used.system;
  };
  // The first tenth of the calls warm the paths up (V8 compiles them, Yoga and graphql-jit cache the documents).
  const warmUp = Math.ceil(input.calls / 10);
  const samples = variants.map(() => [] as number[]);
  // Each round of turns starts one variant later: what a variant's place in the round does to it
  // (following a dearer or a cheaper call) falls on every variant alike.
  for (let call = 0; call < warmUp + input.calls; call++)
    for (let turn = 0; turn < variants.length; turn++) {
      const index = (call + turn) % variants.length;
      const micros = await cpuOfCall(variants[index]!.app, variants[index]!.operation);
      if (call >= warmUp) samples[index]!.push(micros);
    }
  // The median: a collection's pause or the machine's other work lands on one call in hundreds, and would sway a mean by more than a plugin costs.
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cpuMicros: Record<string, Record<string, number>> = {};
  variants.forEach(({ step, operation }, index) => ((cpuMicros[step] ??= {})[operation] = median(samples[index]!)));
  return cpuMicros;
}
