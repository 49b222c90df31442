import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { defineConfig } from "vitest/config";
import { WASM_TIERING_FLAGS } from "./scripts/start/entrypoints.js";

/**
 * One id per `vitest run`, set in the main process and inherited by the test processes it starts,
 * so two runs on one machine (a developer's and CI's) use databases and key directories of their
 * own and never drop each other's.
 */
const run = (process.env["PAYREQ_TEST_RUN"] ??= randomBytes(4).toString("hex"));

// Tests run against the real PostgreSQL and Redis on loopback, in databases and a Redis db of their own.
export const testEnv = {
  NODE_ENV: "test",
  DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/payreq_test_${run}`,
  REDIS_URL: "redis://127.0.0.1:6379/15",
  LOG_LEVEL: "silent",
  CORS_ORIGINS: "https://dashboard.example",
  RATE_LIMIT_PER_MINUTE: "100000",
  // Every test process, and every API and worker process a test starts, holds at most this many
  // connections: `npm test` runs up to six files at once (two per vitest run, the browser's too),
  // with the processes they start, all on the machine's PostgreSQL and its 100 connections. At the default of 20, a burst in two
  // files that each start processes met "too many clients already".
  DATABASE_POOL_SIZE: "6",
  // Spawned API processes serve no metrics port (tests of the metrics call the metrics app itself).
  METRICS_PORT: "0",
  WEBHOOK_SIGNING_KEY_DIR: `${tmpdir()}/payreq-test-signing-keys-${run}`,
  // No settings file: a developer's .env must not reach a test (tests of .env give their own).
  ENV_FILE: "",
};

/**
 * The databases tests run in, all copies of one template that global setup migrates once per run
 * (nobody connects to the template: PostgreSQL copies only an unused database). The api project
 * shares `payreq_test`; each file of the own-database and topology projects gets its own copy
 * (test/setup/worker-database.ts), named with this prefix, the run's id and a random part.
 */
export const testDatabases = {
  templateUrl: `postgresql://postgres@127.0.0.1:5432/payreq_test_template_${run}`,
  workerPrefix: `payreq_test_w_${run}_`,
};

/**
 * V8 flags of the test processes and of the service's processes the tests start: the service's own
 * WebAssembly tiering (scripts/start/entrypoints.ts). A process of a test lives seconds, and V8
 * would spend a third of its CPU optimising Prisma's query compiler, which it runs while it starts
 * (Node 20's budget is a seventh of Node 24's).
 */
export const testNodeFlags = WASM_TIERING_FLAGS;

/** Test files of the API that must not share their process with others (see the projects below). */
const OWN_PROCESS = ["test/pubsub/**/*.test.ts", "test/graphql/graphiql.test.ts", "test/domain/short-code-collision.test.ts"];

/**
 * Test files that each run in a database of their own (the "own-database" project
 * below): the worker's, and those that start the service's processes (npm start, API processes, the
 * subscriptions between them) or run a worker beside the CLI (the documents' CLI examples).
 */
const OWN_DATABASE = [
  "test/worker/**/*.test.ts",
  "test/start/npm-start.test.ts",
  "test/api-process/**/*.test.ts",
  "test/graphql/subscriptions/**/*.test.ts",
  "test/docs/cli-examples.test.ts",
  "test/docs/readme-webhooks.test.ts",
];

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS and ESM builds; Node (and so Pothos and Yoga) loads the CJS one, Vite
    // would pick the ESM one. One realm, or schema objects from one fail checks in the other.
    alias: { graphql: createRequire(import.meta.url).resolve("graphql") },
  },
  test: {
    env: testEnv,
    globalSetup: ["test/setup/global.ts"],
    reporters: ["default", "./test/setup/summary-reporter.ts"],
    // A worker delivers every pending outbox row and sweeps every overdue request of its database,
    // so each file that runs one (in its own process or another's) gets a database of its own (and
    // a signing-key directory of its own), made by its setup file before the file loads the
    // settings (src/api/config.ts).
    //
    // Two files at a time, from every project at once: many files spend much of their time
    // waiting (for an engine to restart, a lease to lapse, a retry to come due, a process to
    // start), and the other file uses the core meanwhile. One at a time (Vitest's default on two
    // cores), or one project after another, left the machine half idle for minutes of `npm test`.
    maxWorkers: 2,
    projects: [
      // The API's tests share their test process's modules (one app, one pool per process, as in
      // the API itself): loading the app anew for each file cost half the project's CPU.
      {
        extends: true,
        test: {
          name: "api",
          include: ["test/**/*.test.ts"],
          exclude: [...OWN_DATABASE, "test/topology/**", "test/browser/**", ...OWN_PROCESS],
          setupFiles: ["test/setup/open-database.ts"],
          isolate: false,
        },
      },
      // Files that replace a module (vi.mock) or count what their process holds get a process each.
      {
        extends: true,
        test: {
          name: "own-process",
          include: OWN_PROCESS,
          setupFiles: ["test/setup/open-database.ts"],
        },
      },
      // Files that run the service on other engines (a Redis Cluster or Sentinel group, a replica, a
      // pooler, several API processes): beside the API's files, each in a database of its own, on
      // engines test/setup/engines.ts starts once per run, or that the file starts for itself.
      {
        extends: true,
        test: {
          name: "topology",
          include: ["test/topology/**/*.test.ts"],
          globalSetup: ["test/setup/engines.ts"],
          setupFiles: ["test/setup/worker-database.ts", "test/setup/open-database.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: "own-database",
          include: OWN_DATABASE,
          setupFiles: ["test/setup/worker-database.ts", "test/setup/open-database.ts"],
        },
      },
    ],
    execArgv: testNodeFlags,
    // expect.poll waits for what the service does (a page paid through the API, a process answering):
    // Vitest's default of one second is less than one round trip can take while the suite's other
    // files keep both cores busy.
    expect: { poll: { timeout: 10_000 } },
    // A deadline against a hang, not a measure of speed (the bench measures that): a test that takes
    // 8 s on a quiet machine (a property's hundreds of calls, a CLI run a few times) takes several
    // times that while other work keeps both cores busy.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
