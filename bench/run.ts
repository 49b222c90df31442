/**
 * `npm run bench [-- --quick]`: starts the API, the worker and a baseline server against a
 * benchmark database of its own, drives them with autocannon from this process, and prints a table
 * and bench/results/<time>.json. Targets are reported, never asserted; any wrong answer stops it.
 *
 * Environment, or the settings file as every entry point reads it (src/env-file.ts):
 * BENCH_DATABASE_URL (default: a new database `payreq_bench_<random>`, dropped at the end),
 * REDIS_URL (the service's default; the run's queue keys are deleted at the end), BENCH_API_PORT
 * and BENCH_BASELINE_PORT (default: free ports).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon, { type Instance, type Options, type Request, type Result } from "autocannon";
import { exportPKCS8, generateKeyPair } from "jose";
import { Redis } from "ioredis";
import pg from "pg";
import { createDatabase, dropDatabase } from "../prisma/create-database.js";
import { loadEnvFile } from "../src/env-file.js";
import { isCorrect } from "./correct-answer.js";

loadEnvFile();

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== "--quick" && arg !== "--only=webhooks");
if (unknown.length) {
  console.error(`bench: unknown argument ${unknown.join(" ")} (expected --quick and/or --only=webhooks)`);
  process.exit(2);
}
const quick = args.includes("--quick");
/** `--only=webhooks` runs the webhook section alone (for work on the worker). */
const only = args.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const DURATION = quick ? 3 : 10;
const WARMUP = quick ? 1 : 3;
// --quick measures the 16-connection figures the README compares (one connection is latency, not load).
const CONNECTIONS = quick ? [16] : [1, 16, 64];
const SCALE = quick ? [10_000, 100_000] : [10_000, 1_000_000];
// Bursts large enough that the first and last milliseconds of one do not set its rate.
const DELIVERIES = quick ? 6000 : 20000;
/** The whole run, start to finish: past it the bench stops everything and fails. */
const DEADLINE_MS = (quick ? 3 : 15) * 60_000;

const ownDatabase = !process.env.BENCH_DATABASE_URL;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/payreq_bench_${randomBytes(4).toString("hex")}`;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const QUEUE_PREFIX = `bench-${Date.now()}`;
const KEY_DIR = await mkdtemp(join(tmpdir(), "payreq-bench-keys-"));
const env = {
  ...process.env,
  DATABASE_URL,
  REDIS_URL,
  QUEUE_PREFIX,
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  // The worker runs as in production, where it generates no key: it signs with a key made for this run, removed with it.
  WEBHOOK_SIGNING_KEY_DIR: KEY_DIR,
  WEBHOOK_SIGNING_KEY: await writeSigningKey(KEY_DIR),
  EXPIRY_SWEEP_INTERVAL: "1h",
  // The bench measures throughput, not the per-key limit: a 429 would stop it as a wrong answer.
  RATE_LIMIT_PER_MINUTE: "1000000000",
  METRICS_PORT: "0",
};

/** Writes a new P-256 private key (PKCS#8 PEM) into `dir` and returns its path. */
async function writeSigningKey(dir: string): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const file = join(dir, "bench-signing-key.pem");
  await writeFile(file, await exportPKCS8(privateKey), { mode: 0o600 });
  return file;
}

/** Per-connection state autocannon threads through a request sequence. */
type Context = { id?: string };

// ---- Processes, and leaving nothing behind ----

const children = new Set<ChildProcess>();
let stopping = false;
let cleanedUp: Promise<boolean> | null = null;

function kill(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  return exited;
}

/** Deletes the run's BullMQ keys (the worker is killed, so it cannot tidy them itself). */
async function deleteQueueKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2_000,
    commandTimeout: 5_000,
    maxRetriesPerRequest: 1,
  });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${QUEUE_PREFIX}:*`, count: 1000 }) as AsyncIterable<string[]>)
      if (keys.length) await redis.unlink(...keys);
  } finally {
    redis.disconnect();
  }
}

/**
 * Stops every child, then removes the run's signing keys, queues and own database; safe to call from
 * any exit path. False when something may be left behind.
 */
async function cleanUp(): Promise<boolean> {
  cleanedUp ??= (async () => {
    stopping = true;
    await Promise.all([...children].map(kill));
    let clean = true;
    const warn = (what: string) => (err: unknown) => {
      clean = false;
      console.error(`bench: could not ${what}: ${err}`);
    };
    await rm(env.WEBHOOK_SIGNING_KEY_DIR, { recursive: true, force: true }).catch(warn("remove the signing keys"));
    await deleteQueueKeys().catch(warn(`delete the Redis keys ${QUEUE_PREFIX}:*`));
    if (ownDatabase) await dropDatabase(DATABASE_URL).catch(warn(`drop ${DATABASE_URL}`));
    return clean;
  })();
  // Clean-up has a deadline too: a database that does not answer must not keep the bench alive.
  const clean = await Promise.race([cleanedUp, sleep(30_000).then(() => null)]);
  if (clean === null) console.error("bench: clean-up unfinished after 30 s");
  return clean === true;
}

/** The bench's own failures ("bench: …") say enough; anything else comes with its stack. */
const describe = (err: unknown) =>
  err instanceof Error ? (err.message.startsWith("bench:") ? err.message : (err.stack ?? err.message)) : String(err);

let failing = false;
/** Prints why the bench stops, cleans up and exits 1; only the first reason counts. */
async function fail(message: string): Promise<never> {
  if (!failing) {
    failing = true;
    console.error(`\n${message}`);
    await cleanUp();
    process.exit(1);
  }
  return new Promise<never>(() => {});
}
// Last resort if the process leaves another way: SIGKILL is synchronous.
process.on("exit", () => children.forEach((child) => child.kill("SIGKILL")));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.once(signal, () => void fail(`bench: stopped by ${signal}`));
// A failed top-level await arrives as an uncaught exception.
for (const event of ["uncaughtException", "unhandledRejection"] as const) process.on(event, (err) => void fail(describe(err)));
setTimeout(() => void fail(`bench: not finished within ${DEADLINE_MS / 60_000} minutes; stopped`), DEADLINE_MS).unref();

function spawnScript(script: string, args: string[], stdout: "inherit" | "pipe", extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...env, ...extra },
    // The IPC channel is how a server tells its port.
    stdio: ["ignore", stdout, "inherit", "ipc"],
  });
  children.add(child);
  return child;
}

/** Starts a long-running process (API, worker, baseline); its ending before the bench does fails the bench. */
function startProcess(script: string, extra: Record<string, string> = {}): ChildProcess {
  const child = spawnScript(script, [], "inherit", extra);
  child.once("exit", (code, signal) => {
    if (!stopping) void fail(`bench: ${script} stopped unexpectedly (${signal ?? `exit code ${code}`})`);
  });
  return child;
}

/** The port a server reports listening on over IPC (src/server.ts, bench/baseline-server.ts), within 30 s. */
function listeningPort(child: ChildProcess, script: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: ${script} did not start listening within 30 s`)), 30_000);
    child.on("message", (message: { listening?: number }) => {
      if (typeof message.listening !== "number") return;
      clearTimeout(timer);
      resolve(message.listening);
    });
  });
}

/** Runs a project script to its end (migrations, the admin CLI) within `timeoutMs`; its standard output. */
function runScript(script: string, args: string[] = [], timeoutMs = 60_000): Promise<string> {
  const child = spawnScript(script, args, "pipe");
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bench: ${script} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolve(output);
      else reject(new Error(`bench: ${script} failed (${signal ?? `exit code ${code}`}): ${output.slice(0, 500)}`));
    });
  });
}

async function admin(...words: string[]): Promise<Record<string, string>> {
  return JSON.parse(await runScript("src/cli/admin.ts", [...words, "--json"]));
}

/** Polls `ready` until it holds; past `timeoutMs` throws, saying what it was waiting for. */
async function waitUntil(what: () => string, ready: () => boolean | Promise<boolean>, timeoutMs: number, everyMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`bench: gave up after ${timeoutMs / 1000} s waiting for ${what()}`);
    await sleep(everyMs);
  }
}

// ---- Correct answers only ----

/** A POST or GET that must answer 2xx without `errors`: anything else stops the bench with the answer. */
async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await answer.text();
  if (!isCorrect(answer.status, text, new URL(url).pathname))
    throw new Error(`bench: ${init.method ?? "GET"} ${url} answered ${answer.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/**
 * One autocannon run that stops at the first incorrect answer and then throws it (status and
 * body), as it does for any non-2xx answer, connection error or timeout: the figures it returns
 * count correct answers only.
 */
function run(options: Options, duration: number): Promise<Result> {
  const url = new URL(options.url);
  let firstBad: string | null = null;
  let instance: Instance | undefined;
  const requests = (options.requests ?? [{}]).map((request): Request => {
    const path = request.path ?? url.pathname + url.search;
    const own = request.onResponse as ((status: number, body: string, context: Context) => void) | undefined;
    return {
      ...request,
      onResponse: (status, body, context) => {
        if (isCorrect(status, body, path)) return own?.(status, body, context);
        firstBad ??= `${request.method ?? options.method ?? "GET"} ${path} answered ${status}: ${body.slice(0, 500)}`;
        instance?.stop();
      },
    };
  });
  return new Promise((resolve, reject) => {
    instance = autocannon({ ...options, duration, requests }, (err, result) => {
      if (err) return reject(err);
      const { non2xx, errors, timeouts } = result;
      if (firstBad === null && !non2xx && !errors && !timeouts) return resolve(result);
      reject(
        new Error(
          `bench: wrong answers from ${url.origin} (${non2xx} non-2xx, ${errors} errors, ${timeouts} timeouts); ` +
            `first: ${firstBad ?? "none received (connection errors or timeouts)"}`,
        ),
      );
    });
  });
}

/** An unmeasured (but checked) warm-up, then the measured run: V8 optimises each path only after some thousands of calls. */
async function load(options: Options): Promise<Result> {
  await run(options, WARMUP);
  return run(options, DURATION);
}

// ---- Figures ----

interface Row {
  section: string;
  operation: string;
  connections: number;
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  errors: number;
}
const rows: Row[] = [];
function record(section: string, operation: string, connections: number, result: Result, perCycle = 1): Row {
  const row = {
    section,
    operation,
    connections,
    rps: Math.round(result.requests.average / perCycle),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
  rows.push(row);
  console.log(
    `  ${section.padEnd(9)} ${operation.padEnd(22)} c=${String(connections).padEnd(3)} ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p97.5 ${row.p97_5} ms  p99 ${row.p99} ms  errors ${row.errors}`,
  );
  return row;
}

/** Peak resident memory (VmHWM) of a process, in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

// ---- Set-up ----

const command = ["node", ...process.execArgv, relative(process.cwd(), process.argv[1]!), ...args].join(" ");
const viaNpm = process.env.npm_lifecycle_event
  ? ` (npm run ${process.env.npm_lifecycle_event}${args.length ? ` -- ${args.join(" ")}` : ""})`
  : "";
console.log(`bench ${new Date().toISOString()}: ${quick ? "quick" : "full"}${only ? `, only ${only}` : ""}`);
console.log(`  command: ${command}${viaNpm}`);
console.log(
  `  machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}`,
);
console.log(`  database: ${DATABASE_URL}${ownDatabase ? " (created for this run, dropped at its end)" : ""}`);
console.log(`  Redis: ${REDIS_URL.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@")}, queues ${QUEUE_PREFIX}:* (deleted at the end)`);
if (ownDatabase) await createDatabase(DATABASE_URL, { recreate: true });
await runScript("src/start/migrate.ts", [], 120_000);
const merchant = await admin("merchant", "create", "--name", "Bench Merchant");
const payerKey = (await admin("key", "create", "--payer")).apiKey!;
const api = startProcess("src/server.ts", { PORT: process.env.BENCH_API_PORT ?? "0" });
const worker = startProcess("worker/index.ts");
const baseline = startProcess("bench/baseline-server.ts", { PORT: process.env.BENCH_BASELINE_PORT ?? "0" });
const API = `http://127.0.0.1:${await listeningPort(api, "src/server.ts")}`;
const BASELINE = `http://127.0.0.1:${await listeningPort(baseline, "bench/baseline-server.ts")}`;
console.log(`  API ${API}, baseline ${BASELINE}`);

const headers = { "x-api-key": merchant.apiKey!, "content-type": "application/json" };
const createBody = JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 300 });
const gqlCreate = JSON.stringify({
  query: `mutation($m: ID!) { requestCreate(input: { merchantId: $m, asset: "NZD", amount: 300 }) { ... on PaymentRequest { id requestCode status } ... on Error { code } } }`,
  variables: { m: merchant.merchantId },
});
const gqlInfo = (id: string) =>
  JSON.stringify({
    query: `query($id: ID) { paymentRequest(id: $id) { id status requestCode denomination { amount asset } payments { ledger amount } paidBy { id } } }`,
    variables: { id },
  });
const sample = await call<{ requestId: string }>(`${API}/api/requests.create`, { method: "POST", headers, body: createBody });

const gqlPay = (id: string) =>
  JSON.stringify({
    query: `mutation($i: RequestPayInput!) { requestPay(input: $i) { ... on PaymentRequest { id status paidBy { id } } ... on Error { code } } }`,
    variables: { i: { requestId: id, ledger: "test.uplink", authorization: "bench" } },
  });
/** Create then pay, over one transport: a pay needs a new request each time. */
function payCycles(connections: number, transport: "rest" | "graphql") {
  const rest = transport === "rest";
  return load({
    url: API,
    connections,
    requests: [
      {
        method: "POST",
        path: rest ? "/api/requests.create" : "/graphql",
        headers,
        body: rest ? createBody : gqlCreate,
        onResponse: (_s, body, context: Context) => {
          const parsed = JSON.parse(body);
          context.id = rest ? parsed.requestId : parsed.data.requestCreate.id;
        },
      },
      {
        method: "POST",
        path: rest ? "/api/requests.pay" : "/graphql",
        headers: { ...headers, "x-api-key": payerKey },
        setupRequest: (req, context: Context) => ({
          ...req,
          body: rest
            ? JSON.stringify({ requestId: context.id, ledger: "test.uplink", authorization: "bench" })
            : gqlPay(context.id!),
        }),
      },
    ],
  });
}

if (!only) console.log("\nThroughput and latency (autocannon, %d s per run)", DURATION);
const summary: Record<string, Record<number, number>> = {};
const note = (key: string, c: number, rps: number) => ((summary[key] ??= {})[c] = rps);
for (const c of only ? [] : CONNECTIONS) {
  note(
    "rest.create",
    c,
    record(
      "REST",
      "requests.create",
      c,
      await load({ url: `${API}/api/requests.create`, method: "POST", headers, body: createBody, connections: c }),
    ).rps,
  );
  note(
    "rest.info",
    c,
    record(
      "REST",
      "requests.info",
      c,
      await load({ url: `${API}/api/requests.info?requestId=${sample.requestId}`, headers, connections: c }),
    ).rps,
  );
  const cycle = await load({
    url: API,
    connections: c,
    requests: [
      {
        method: "POST",
        path: "/api/requests.create",
        headers,
        body: createBody,
        onResponse: (_s, body, context: Context) => void (context.id = JSON.parse(body).requestId),
      },
      {
        method: "POST",
        path: "/api/requests.pay",
        headers: { ...headers, "x-api-key": payerKey },
        setupRequest: (req, context: Context) => ({
          ...req,
          body: JSON.stringify({ requestId: context.id, ledger: "test.uplink", authorization: "bench" }),
        }),
      },
      {
        method: "GET",
        headers,
        setupRequest: (req, context: Context) => ({ ...req, path: `/api/requests.info?requestId=${context.id}` }),
      },
    ],
  });
  note("rest.cycle", c, record("REST", "create→pay→info cycles", c, cycle, 3).rps);
  note("rest.pay", c, record("REST", "create→pay cycles", c, await payCycles(c, "rest"), 2).rps);
  note("graphql.pay", c, record("GraphQL", "create→pay cycles", c, await payCycles(c, "graphql"), 2).rps);
  note(
    "graphql.create",
    c,
    record(
      "GraphQL",
      "requestCreate",
      c,
      await load({ url: `${API}/graphql`, method: "POST", headers, body: gqlCreate, connections: c }),
    ).rps,
  );
  note(
    "graphql.info",
    c,
    record(
      "GraphQL",
      "paymentRequest",
      c,
      await load({ url: `${API}/graphql`, method: "POST", headers, body: gqlInfo(sample.requestId), connections: c }),
    ).rps,
  );
  note(
    "baseline.create",
    c,
    record(
      "baseline",
      "create",
      c,
      await load({ url: `${BASELINE}/api/requests.create`, method: "POST", headers, body: createBody, connections: c }),
    ).rps,
  );
  note(
    "baseline.info",
    c,
    record(
      "baseline",
      "info",
      c,
      await load({ url: `${BASELINE}/api/requests.info?requestId=${sample.requestId}`, headers, connections: c }),
    ).rps,
  );
}

// Webhooks: a receiver on loopback answering 200 at once.
const arrivals = new Map<string, number>();
let arrived = 0;
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk));
  req.on("end", () => {
    const now = Date.now();
    arrived += 1;
    const payload = JSON.parse(Buffer.from((JSON.parse(body) as { token: string }).token.split(".")[1]!, "base64url").toString());
    arrivals.set(payload.transaction.request.requestId, now);
    res.writeHead(200).end("ok");
  });
}).listen(0, "127.0.0.1");
await new Promise((resolve) => receiver.once("listening", resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

console.log("\nWebhooks");
/** Creates and pays a request that names the receiver; the milliseconds from the pay's answer to the notification. */
async function notificationLatency(): Promise<number> {
  const created = await call<{ requestId: string }>(`${API}/api/requests.create`, {
    method: "POST",
    headers,
    body: JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 300, notifyUrl: hookUrl }),
  });
  await call(`${API}/api/requests.pay`, {
    method: "POST",
    headers: { ...headers, "x-api-key": payerKey },
    body: JSON.stringify({ requestId: created.requestId, ledger: "test.uplink", authorization: "bench" }),
  });
  const paidAt = Date.now();
  await waitUntil(
    () => `the notification of ${created.requestId}`,
    () => arrivals.has(created.requestId),
    30_000,
    1,
  );
  return arrivals.get(created.requestId)! - paidAt;
}
// One unmeasured notification first: with --only=webhooks the worker may still be starting.
await notificationLatency();
const latencies: number[] = [];
for (let i = 0; i < (quick ? 20 : 50); i++) latencies.push(await notificationLatency());
latencies.sort((a, b) => a - b);
const percentile = (values: number[], p: number) => values[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const webhookLatency = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
console.log(`  pay → notification received, idle: p50 ${webhookLatency.p50} ms, p99 ${webhookLatency.p99} ms`);

// Throughput: clone outbox rows in SQL (each with its own transaction), wake the worker, and time
// until every event is DELIVERED in PostgreSQL with its attempt recorded, not just received.
const sql = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 10_000 });
await sql.connect();
const [template] = (await sql.query("SELECT request_id, merchant_id, transaction_id, payload FROM webhook_event LIMIT 1")).rows;
/** Delivers `count` new notifications at once; returns how many a second were delivered and recorded. */
async function burst(count: number): Promise<number> {
  await sql.query("DROP TABLE IF EXISTS ids");
  await sql.query(`CREATE TEMP TABLE ids AS SELECT gen_random_uuid() AS id FROM generate_series(1, ${count})`);
  await sql.query(
    `INSERT INTO "transaction" (id, type, request_id, merchant_id, ledger_id, amount, auth_code, response_code, payment_type, settlement_date, purchase_id, external_reference, updated_at)
     SELECT id, 'REFUND', $1, $2, 'test.uplink', 1, 'X', '00', 'test', now(), $3, id::text, now() FROM ids`,
    [template.request_id, template.merchant_id, template.transaction_id],
  );
  const started = Date.now();
  const arrivedBefore = arrived;
  await sql.query(
    `INSERT INTO webhook_event (id, merchant_id, request_id, transaction_id, url, payload, updated_at)
     SELECT gen_random_uuid(), $1, $2, id, $3, $4, now() FROM ids`,
    [template.merchant_id, template.request_id, hookUrl, template.payload],
  );
  await sql.query("SELECT pg_notify('webhook_events', 'bench')");
  const recorded = async () =>
    Number(
      (
        await sql.query(
          `SELECT count(*) FROM webhook_event e JOIN ids ON ids.id = e.transaction_id
           WHERE e.state = 'DELIVERED' AND EXISTS (SELECT 1 FROM webhook_attempt a WHERE a.event_id = e.id AND a.outcome = 'DELIVERED')`,
        )
      ).rows[0].count,
    );
  // Counting in PostgreSQL is work for the database too, so it starts once the receiver has them all.
  let done = 0;
  await waitUntil(
    () => `${count} notifications delivered and recorded (${arrived - arrivedBefore} received, ${done} recorded)`,
    async () => arrived - arrivedBefore >= count && (done = await recorded()) >= count,
    300_000,
    10,
  );
  return Math.round((count / (Date.now() - started)) * 1000);
}
// Unmeasured warm-up, as for the HTTP runs: the worker has delivered only a few notifications so far.
await burst(DELIVERIES / 2);
const deliveriesPerSecond = await burst(DELIVERIES);
console.log(`  ${DELIVERIES} notifications delivered at ${deliveriesPerSecond}/s (signed, every attempt recorded)`);
receiver.close();
if (only === "webhooks") {
  process.exit((await cleanUp()) ? 0 : 1);
}

// Subscription fan-out: one key at its most open streams (SUBSCRIPTIONS_PER_KEY, 20 by default);
// the milliseconds from a cancel's answer until every stream has heard the change.
console.log("\nSubscriptions");
const STREAMS = 20;
const streamsStop = new AbortController();
const heardBy = new Map<string, number>();
await Promise.all(
  Array.from({ length: STREAMS }, async () => {
    const response = await fetch(`${API}/graphql`, {
      method: "POST",
      signal: streamsStop.signal,
      headers: { ...headers, accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { paymentRequestChanged { id status } }" }),
    });
    if (response.status !== 200) throw new Error(`bench: a subscription was refused: HTTP ${response.status}`);
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        const events = buffer.split("\n\n");
        buffer = events.pop()!;
        for (const id of events.flatMap((event) => /"id":"([^"]+)"/.exec(event)?.[1] ?? []))
          heardBy.set(id, (heardBy.get(id) ?? 0) + 1);
      }
    })().catch(() => {}); // ends when the bench aborts the streams
  }),
);
/** Creates and cancels a request; the milliseconds from the cancel's answer until every stream heard it. */
async function fanOutLatency(timeoutMs = 30_000): Promise<number> {
  const { requestId } = await call<{ requestId: string }>(`${API}/api/requests.create`, {
    method: "POST",
    headers,
    body: JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 300 }),
  });
  await call(`${API}/api/requests.cancel`, { method: "POST", headers, body: JSON.stringify({ requestId }) });
  const cancelledAt = Date.now();
  await waitUntil(
    () => `all ${STREAMS} streams to hear ${requestId}`,
    () => heardBy.get(requestId) === STREAMS,
    timeoutMs,
    1,
  );
  return Date.now() - cancelledAt;
}
// The streams listen once the API has subscribed in Redis: unmeasured changes until one reaches them all.
await waitUntil(
  () => "the subscription streams to hear a change",
  () =>
    fanOutLatency(500).then(
      () => true,
      () => false,
    ),
  20_000,
  0,
);
const fanOut: number[] = [];
for (let i = 0; i < (quick ? 20 : 50); i++) fanOut.push(await fanOutLatency());
fanOut.sort((a, b) => a - b);
const subscriptionFanOut = { streams: STREAMS, p50: percentile(fanOut, 50), p99: percentile(fanOut, 99) };
console.log(
  `  cancel → heard by all ${STREAMS} streams of the key: p50 ${subscriptionFanOut.p50} ms, p99 ${subscriptionFanOut.p99} ms`,
);
streamsStop.abort();

// Scale: requests.info p99 with N requests of this merchant in the database.
console.log("\nScale");
const scale: Record<number, number> = {};
let seeded = 0;
for (const size of SCALE) {
  await sql.query(
    `INSERT INTO payment_request (id, merchant_id, asset, amount, request_code, payment_expiry_seconds, expires_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'NZD', 100 + g, 'S' || g, 120, now() + interval '2 minutes', now(), now() FROM generate_series($2::int, $3::int) g`,
    [merchant.merchantId, seeded + 1, size],
  );
  seeded = size;
  await sql.query("ANALYZE payment_request");
  const ids = (await sql.query("SELECT id FROM payment_request TABLESAMPLE SYSTEM (1) LIMIT 2000")).rows.map(
    (r) => r.id as string,
  );
  const result = await load({
    url: API,
    connections: 16,
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, path: `/api/requests.info?requestId=${ids[Math.floor(Math.random() * ids.length)]}` }),
        headers,
      },
    ],
  });
  scale[size] = record("scale", `info @ ${size.toLocaleString("en")} rows`, 16, result).p99;
}
// A dashboard's first page of a merchant with as many requests as the largest scale step.
const listQuery = JSON.stringify({
  query: `{ paymentRequests(first: 20) { edges { node { id status createdAt denomination { amount asset } } } pageInfo { hasNextPage endCursor } } }`,
});
record(
  "scale",
  `paymentRequests(first: 20) @ ${SCALE.at(-1)!.toLocaleString("en")}`,
  16,
  await load({ url: API, connections: 16, requests: [{ method: "POST", path: "/graphql", headers, body: listQuery }] }),
);
await sql.end();

const memory = { apiMiB: await peakRssMiB(api.pid!), workerMiB: await peakRssMiB(worker.pid!) };
console.log(`\nPeak RSS: API ${memory.apiMiB} MiB, worker ${memory.workerMiB} MiB`);

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const [small, large] = SCALE as [number, number];
const targets = [
  [
    "requests.create at 16 connections ≥ 50% of baseline",
    ratio(summary["rest.create"]![16]!, summary["baseline.create"]![16]!),
    0.5,
  ],
  ["requests.info at 16 connections ≥ 75% of baseline", ratio(summary["rest.info"]![16]!, summary["baseline.info"]![16]!), 0.75],
  [
    "requests.info p99 at 16 connections < 20 ms",
    rows.find((r) => r.operation === "requests.info" && r.connections === 16)!.p99,
    20,
    "below",
  ],
  ["GraphQL create ≥ 80% of REST (16 connections)", ratio(summary["graphql.create"]![16]!, summary["rest.create"]![16]!), 0.8],
  ["GraphQL info ≥ 80% of REST (16 connections)", ratio(summary["graphql.info"]![16]!, summary["rest.info"]![16]!), 0.8],
  ["GraphQL create→pay ≥ 80% of REST (16 connections)", ratio(summary["graphql.pay"]![16]!, summary["rest.pay"]![16]!), 0.8],
  ["≥ 2000 notifications per second", deliveriesPerSecond, 2000],
  ["pay → notification p99 < 50 ms when idle", webhookLatency.p99, 50, "below"],
  [
    `info p99 at ${large.toLocaleString("en")} rows ≤ 1.5 × at ${small.toLocaleString("en")}`,
    ratio(scale[large]!, Math.max(scale[small]!, 1)),
    1.5,
    "below-or-equal",
  ],
] as const;
console.log("\nTargets");
const verdicts = targets.map(([name, value, goal, direction]) => {
  const met = direction === "below" ? value < goal : direction === "below-or-equal" ? value <= goal : value >= goal;
  console.log(`  ${met ? "met    " : "MISSED "} ${name}: ${value}`);
  return { name, value, goal, met };
});

await mkdir("bench/results", { recursive: true });
const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`;
await writeFile(
  file,
  JSON.stringify(
    {
      quick,
      durationSeconds: DURATION,
      rows,
      webhooks: { ...webhookLatency, deliveriesPerSecond },
      subscriptionFanOut,
      scale,
      memory,
      targets: verdicts,
    },
    null,
    2,
  ),
);
console.log(`\nWrote ${file}`);
process.exit((await cleanUp()) ? 0 : 1);
