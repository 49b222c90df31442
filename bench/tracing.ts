/**
 * What tracing costs the API: two more API processes on the bench's database and Redis, started
 * alike, one with tracing off and one exporting every span to an OTLP collector on loopback (in
 * this process), measured in alternating runs of REST requests.info, REST requests.pay and GraphQL
 * paymentRequest. Reports req/s, p99 and CPU per call of each, and on ÷ off. The "off" process runs
 * what every untraced API runs; that tracing off costs nothing is the service's rows against an
 * earlier version's (docs/scaling.md), since a build without tracing is not in this run.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Options } from "autocannon";
import { gqlInfo, infoOfAny, payEach, type Bench } from "./calls.js";
import { compareAlternating, printCompared } from "./alternating.js";
import { idSupply } from "./load.js";
import { fail } from "./lifecycle.js";
import { poolSize, type BenchOptions } from "./options.js";
import { startServer } from "./processes.js";
import { rows } from "./report.js";
import { seedRequests } from "./seed.js";

/** Alternating runs per operation and mode: drift on a shared machine weighs on both modes alike. */
const ROUNDS = 2;

export interface TracingFigures {
  /** Per operation: the off and on runs' mean req/s and CPU µs per call, and on ÷ off. */
  operations: Record<
    string,
    {
      off: { rps: number; cpu: number | null };
      on: { rps: number; cpu: number | null };
      rpsRatio: number;
      cpuRatio: number | null;
    }
  >;
  /** What the collector received from the traced API: POSTs and bytes, and bytes per traced call. */
  exported: { posts: number; bytes: number; bytesPerCall: number };
}

/** Names the traced API's batches must hold: its service, a REST call, a GraphQL operation, a statement. */
const EXPECTED = ["payreq-api", "requests.pay", "query.anonymous", "pg.query"];

/** An OTLP/HTTP collector that takes every batch (200), counts it, and notes which expected names it held. */
async function startCollector() {
  const received = { posts: 0, bytes: 0, seen: new Set<string>() };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      received.posts += 1;
      received.bytes += body.length;
      // Span names are plain UTF-8 in protobuf.
      for (const name of EXPECTED) if (!received.seen.has(name) && body.includes(name)) received.seen.add(name);
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => server.close() };
}

export async function measureTracing(bench: Bench, env: NodeJS.ProcessEnv, options: BenchOptions): Promise<TracingFigures> {
  const collector = await startCollector();
  const apiEnv = { ...env, PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "warn" };
  // Whatever tracing settings the bench itself was given, one process traces every call and one none.
  const untraced = startServer("src/api/server.ts", { ...apiEnv, OTEL_TRACES_EXPORTER: "none" });
  const traced = startServer("src/api/server.ts", {
    ...apiEnv,
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
    OTEL_TRACES_SAMPLER: "parentbased_always_on",
    OTEL_BSP_SCHEDULE_DELAY: "1000",
  });
  const servers = {
    off: { url: `http://127.0.0.1:${await untraced.port}`, pid: untraced.child.pid! },
    on: { url: `http://127.0.0.1:${await traced.port}`, pid: traced.child.pid! },
  };

  const { headers, payerHeaders, merchantId, sql, timing } = bench;
  const size = poolSize(options);
  // A pool per measured run, and one for both processes' first warm-up.
  const payable = (await seedRequests(sql, merchantId, (2 * ROUNDS + 1) * size, { paid: false })).requestIds;
  const readable = payable.slice(0, 1000);
  const nextPayable = idSupply(payable, "requests for the tracing section's pays");
  const operations: Record<string, (url: string) => Options> = {
    "requests.info": (url) => infoOfAny(url, headers, readable),
    "requests.pay": (url) => payEach(url, payerHeaders, nextPayable),
    "GraphQL paymentRequest": (url) => ({
      url: `${url}/graphql`,
      connections: 16,
      requests: [
        {
          method: "POST",
          headers,
          setupRequest: (req) => ({ ...req, body: gqlInfo(readable[Math.floor(Math.random() * 1000)]!) }),
        },
      ],
    }),
  };

  const compared = await compareAlternating("tracing", servers, operations, timing, { rounds: ROUNDS });
  const figures: TracingFigures["operations"] = {};
  for (const [operation, { off, on, rpsRatio, cpuRatio }] of Object.entries(compared))
    figures[operation] = { off, on, rpsRatio: rpsRatio.on, cpuRatio: cpuRatio.on };
  const callsOn = rows.filter((row) => row.key.startsWith("tracing.on.")).map((row) => row.rps * timing.duration);

  // The last batch leaves within the export delay; past a deadline, tracing did not work.
  const deadline = Date.now() + 15_000;
  while (collector.received.seen.size < EXPECTED.length) {
    if (Date.now() > deadline) {
      const missing = EXPECTED.filter((name) => !collector.received.seen.has(name));
      await fail(`bench: the traced API exported no ${missing.join(", ")} spans (${collector.received.posts} OTLP POSTs)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { posts, bytes } = collector.received;
  collector.close();
  const calls = callsOn.reduce((a, b) => a + b, 0);
  console.log("  on ÷ off (mean of the runs):");
  printCompared(compared, ["off", "on"]);
  const bytesPerCall = Math.round(bytes / Math.max(calls, 1));
  console.log(
    `  exported: ${posts} OTLP POSTs, ${(bytes / 2 ** 20).toFixed(1)} MiB, about ${bytesPerCall} bytes per traced call`,
  );
  // Both processes stop with the bench (lifecycle.ts).
  return { operations: figures, exported: { posts, bytes, bytesPerCall } };
}
