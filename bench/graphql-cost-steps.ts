/**
 * The graphql-cost section's measuring process (bench/graphql-cost.ts runs it with the service's
 * settings): the API's app made once per step (Yoga with the schema alone, then with the GraphQL
 * endpoint's plugins added one at a time in their order, so that the last is the whole service,
 * whose REST routes are the twins), each called through its fetch handler in this process. The
 * steps take turns call by call, and each call's CPU is read around it (process.cpuUsage): whatever
 * drifts (a collection, a timer, the machine's load) falls on every step alike. Prints one JSON
 * line: the steps, and each step's mean CPU µs per call of each operation.
 *
 *   node --import tsx bench/graphql-cost-steps.ts '{"apiKey":…,"merchantId":…,"requestId":…,"calls":…}'
 */
import { loadApiConfig } from "../src/api/config.js";
import { openDatabase } from "../src/db.js";
import type { NamedPlugin } from "../src/graphql/yoga.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/logger.js";
import { openRedis, waitForRedis } from "../src/transport/redis.js";
import { createBody, gqlCreate, gqlInfo } from "./calls.js";

const input = JSON.parse(process.argv[2]!) as { apiKey: string; merchantId: string; requestId: string; calls: number };
const config = loadApiConfig();
const logger = createLogger({ level: "silent" }, "bench");
openDatabase(config.db, logger);
const redis = openRedis(config.redis, logger);
if (!(await waitForRedis(redis, config.redis, 30_000, logger))) throw new Error("bench: Redis did not answer");

let names: string[] = [];
const appWith = (kept: (all: NamedPlugin[]) => NamedPlugin[]) => createApp({ config, logger, redis, graphqlPlugins: kept });
const apps = [appWith((all) => ((names = all.map(({ name }) => name)), []))];
for (let kept = 1; kept <= names.length; kept++) apps.push(appWith((all) => all.slice(0, kept)));
const steps = ["schema alone", ...names.map((name) => `+ ${name}`)];

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
    call: () => new Request("http://bench/api/requests.create", { method: "POST", headers, body: createBody(input.merchantId) }),
    holds: '"requestId"',
  },
};
type Operation = keyof typeof operations;
const variants = [
  ...apps.flatMap((app, index) =>
    (["paymentRequest", "requestCreate"] as const).map((operation) => ({ step: steps[index]!, app, operation })),
  ),
  ...(["requests.info", "requests.create"] as const).map((operation) => ({ step: "REST", app: apps.at(-1)!, operation })),
];

/** One call's CPU µs; throws at an answer that is not right. */
async function cpuOfCall(app: (typeof apps)[number], operation: Operation): Promise<number> {
  const { call, holds } = operations[operation];
  const start = process.cpuUsage();
  const answer = await app.fetch(call());
  const text = await answer.text();
  const used = process.cpuUsage(start);
  if (answer.status !== 200 || !text.includes(holds) || text.includes('"errors"'))
    throw new Error(`bench: ${operation} answered ${answer.status} ${text.slice(0, 300)}`);
  return used.user + used.system;
}

// The first tenth of the calls warm the paths up (V8 compiles them, Yoga and graphql-jit cache the documents).
const warmUp = Math.ceil(input.calls / 10);
const total = variants.map(() => 0);
for (let call = 0; call < warmUp + input.calls; call++)
  for (const [index, { app, operation }] of variants.entries()) {
    const micros = await cpuOfCall(app, operation);
    if (call >= warmUp) total[index]! += micros;
  }
const cpuMicros: Record<string, Record<string, number>> = {};
variants.forEach(({ step, operation }, index) => ((cpuMicros[step] ??= {})[operation] = Math.round(total[index]! / input.calls)));
console.log(JSON.stringify({ steps, cpuMicros }));
process.exit(0);
