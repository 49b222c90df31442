/**
 * `npm run bench [-- --quick]`: starts the service with `npm start` (its supervisor, the API and
 * the worker) and a baseline server against a benchmark database of its own, drives them with
 * autocannon from this process, and prints a table, ratios, CPU per call, memory and targets, and
 * bench/results/<time>.json. Targets are reported, never asserted; any wrong answer stops it.
 * Settings: bench/environment.ts. Sections: throughput.ts, webhooks.ts (and endpoint-deliveries.ts), fairness.ts, subscriptions.ts, isolation.ts, scale.ts, money.ts,
 * tracing.ts, topology.ts, retention.ts, console.ts, graphql-cost.ts.
 */
import { cpus, totalmem } from "node:os";
import { relative } from "node:path";
import pg from "pg";
import type { Bench } from "./calls.js";
import { prepareEnvironment } from "./environment.js";
import { measureConsole } from "./console.js";
import { measureGraphQLCost } from "./graphql-cost.js";
import { measureFairness } from "./fairness.js";
import { measureIsolation } from "./isolation.js";
import { finish, installGuards } from "./lifecycle.js";
import { idleMemory, printMemory, roles, withPeaks } from "./memory.js";
import { measureMoneyPath } from "./money.js";
import { parseOptions, type BenchOptions } from "./options.js";
import { clockTicksPerSecond } from "./proc.js";
import { admin, startServer } from "./processes.js";
import { printCpuPerCall, printRatios, printTargets, ratios, rows, writeResults } from "./report.js";
import { measureRetention } from "./retention.js";
import { measureScale } from "./scale.js";
import { startService } from "./service.js";
import { measureFanOut } from "./subscriptions.js";
import { consoleTargets, fairnessTargets, isolationTargets, targets } from "./targets.js";
import { measureThroughput } from "./throughput.js";
import { measureTopology } from "./topology.js";
import { measureTracing } from "./tracing.js";
import { measureWebhooks } from "./webhooks.js";
import { describeRedis } from "../src/redis-connection.js";

const args = process.argv.slice(2);
const options: BenchOptions = (() => {
  try {
    return parseOptions(args);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
})();
const startedAt = Date.now();
installGuards(options.deadlineMs);
const { env, databaseUrl, ownDatabase, redis, queuePrefix, apiPort, baselinePort } = await prepareEnvironment();

const command = ["node", ...process.execArgv, relative(process.cwd(), process.argv[1]!), ...args].join(" ");
const viaNpm = process.env.npm_lifecycle_event
  ? ` (npm run ${process.env.npm_lifecycle_event}${args.length ? ` -- ${args.join(" ")}` : ""})`
  : "";
console.log(
  `bench ${new Date().toISOString()}: ${options.quick ? "quick" : "full"}${options.only ? `, only ${options.only}` : ""}`,
);
console.log(`  command: ${command}${viaNpm}`);
console.log(
  `  machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}`,
);
console.log(`  database: ${databaseUrl}${ownDatabase ? " (created by npm start for this run, dropped at its end)" : ""}`);
console.log(`  Redis: ${describeRedis(redis)}, queues ${queuePrefix}:* (deleted at the end)`);

const ticksPerSecond = clockTicksPerSecond();
const baseline = startServer("bench/baseline-server.ts", { ...env, PORT: baselinePort });
// npm start makes the database and applies the migrations itself, as it does for an operator.
const service = await startService(env, apiPort);
const { processes } = service;
const BASELINE = `http://127.0.0.1:${await baseline.port}`;
console.log(
  `  service: npm start (pid ${processes.npm.pid}) → supervisor ${processes.supervisor.pid} → API ${processes.api.pid} at ` +
    `${service.url}, worker ${processes.worker.pid}; baseline ${BASELINE}`,
);
// Idle: after start-up, before the first call.
const idle = await idleMemory(roles(processes, baseline.child.pid!));

const merchant = await admin(env, "merchant", "create", "--name", "Bench Merchant");
const payerKey = (await admin(env, "key", "create", "--payer")).apiKey!;
const sql = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
sql.on("error", () => {}); // a connection dropped with the database at clean-up
await sql.connect();
const bench: Bench = {
  api: service.url,
  baseline: BASELINE,
  pids: { api: processes.api.pid, worker: processes.worker.pid, baseline: baseline.child.pid! },
  merchantId: merchant.merchantId!,
  headers: { "x-api-key": merchant.apiKey!, "content-type": "application/json" },
  payerHeaders: { "x-api-key": payerKey, "content-type": "application/json" },
  sql,
  timing: { warmup: options.warmup, duration: options.duration, ticksPerSecond },
};

/** Ends a run of one section (`--only`): its results file, then the clean-up. */
const endAlone = async (results: Record<string, unknown>): Promise<never> => {
  console.log(`\nWrote ${await writeResults(options.quick, { only: options.only, ...results })}`);
  await sql.end();
  return finish();
};

const isolationSection = async () => {
  console.log("\nTenant isolation (another tenant's calls one at a time; blocks with and without the flood alternate)");
  return measureIsolation(bench, env, options);
};
if (options.only === "isolation") {
  const isolation = await isolationSection();
  await endAlone({ isolation, targets: printTargets(isolationTargets(isolation)) });
}

const moneySection = async () => {
  console.log("\nMoney path (a pay or refund per call, each on a request or purchase of its own made beforehand in SQL)");
  for (const c of options.connections) await measureMoneyPath(bench, options, c);
};
if (options.only === "money") {
  await moneySection();
  printCpuPerCall(["rest.pay", "graphql.pay", "rest.refund", "baseline.pay", "baseline.refund"]);
  await endAlone({ rows, ratios: ratios() });
}

const fairnessSection = async () => {
  console.log(
    "\nFairness (another merchant pays and waits for its notifications while one with 16 endpoints that hang floods them)",
  );
  return measureFairness(bench, databaseUrl, options);
};
if (options.only === "fairness") {
  const fairness = await fairnessSection();
  await endAlone({ fairness, targets: printTargets(fairnessTargets(fairness)) });
}

const consoleSection = async () => {
  console.log("\nMerchant console (merchantStats over a merchant's 100,000 requests; the first load in Chromium)");
  return measureConsole(bench, env, options.duration);
};
if (options.only === "console") {
  const figures = await consoleSection();
  await endAlone({ console: figures, targets: printTargets(consoleTargets(figures)) });
}

const graphqlCostSection = async () => {
  console.log(
    "\nGraphQL's cost, piece by piece (an app per step in one process: called there one call at a time, the steps taking turns; then the ends over HTTP)",
  );
  return measureGraphQLCost(bench, env, { calls: 1000, warmup: 1, duration: 3, rounds: 4, ticksPerSecond });
};
if (options.only === "graphql-cost") {
  await endAlone({ graphqlCost: await graphqlCostSection() });
}

if (!options.only) {
  console.log(`\nThroughput and latency (autocannon, ${options.warmup} s warm-up then ${options.duration} s per run)`);
  for (const [i, c] of options.connections.entries()) await measureThroughput(bench, c, { cold: i === 0 });
}

const topologySection = async () => {
  console.log(
    "\nTopology (API processes and workers on a Redis Cluster, and on PostgreSQL without prepared statements or through PgBouncer; runs alternate)",
  );
  return measureTopology(bench, env, options);
};
if (options.only === "topology") {
  await endAlone({ topology: await topologySection() });
}

const tracingSection = async () => {
  console.log(
    "\nTracing (two more API processes started alike, one exporting every span to an OTLP collector on loopback; runs alternate)",
  );
  return measureTracing(bench, env, options);
};
if (options.only === "tracing") {
  await endAlone({ tracing: await tracingSection() });
}

console.log("\nWebhooks");
const webhooks = await measureWebhooks(bench, options, databaseUrl);
if (options.only === "webhooks") {
  await sql.end();
  await finish();
}

const fairness = await fairnessSection();

console.log("\nSubscriptions");
const subscriptionFanOut = await measureFanOut(bench, options);

const isolation = await isolationSection();

console.log("\nScale");
const scale = await measureScale(bench, options);

// After the scale section, so that its steps count the rows they say.
await moneySection();

const consoleFigures = await consoleSection();

// Alone (--only=graphql-cost) or in the full run, about four minutes: quick runs keep to the headline figures.
const graphqlCost = options.quick ? null : await graphqlCostSection();

// The quick run keeps a round of every figure with a target; tracing's and the topologies' ratios,
// the slowest sections (about three minutes together), run in the full bench or with --only.
const tracing = options.quick ? null : await tracingSection();
const topology = options.quick ? null : await topologySection();
if (options.quick) console.log("\nTracing and topology: in the full bench, or alone with --only=tracing and --only=topology");

// Last: the rows it deletes leave the tables to vacuum, which would weigh on whatever came next.
console.log("\nRetention (a sweep of rows that are due, while requests.info runs)");
const retention = await measureRetention(bench, options, databaseUrl);
await sql.end();

const memory = await withPeaks(idle);
printMemory(memory);

const measuredRatios = ratios();
printRatios(measuredRatios);

printCpuPerCall([
  "rest.info",
  "rest.create",
  "rest.pay",
  "rest.refund",
  "graphql.info",
  "graphql.create",
  "graphql.pay",
  "baseline.info",
  "baseline.create",
  "baseline.pay",
  "baseline.refund",
]);

const verdicts = printTargets([
  ...targets({ rows, memory, webhooks, isolation, fairness, scale, scaleSteps: options.scale }),
  ...consoleTargets(consoleFigures),
]);

const file = await writeResults(options.quick, {
  durationSeconds: options.duration,
  warmupSeconds: options.warmup,
  clockTicksPerSecond: ticksPerSecond,
  rows,
  ratios: measuredRatios,
  webhooks,
  fairness,
  subscriptionFanOut,
  isolation,
  scale,
  retention,
  console: consoleFigures,
  graphqlCost,
  tracing,
  topology,
  memory,
  targets: verdicts,
});
console.log(`\nWrote ${file} (the run took ${Math.round((Date.now() - startedAt) / 1000)} s)`);
await finish();
