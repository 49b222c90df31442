import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { bundle, ENTRY_POINTS } from "../../scripts/image/bundle.js";
import { createDatabase, dropDatabase } from "../../scripts/start/database-admin.js";
import { dropDatabasesStartingWith } from "./leftover-databases.js";
import { applyMigrations } from "../../scripts/start/migrations.js";
import { testDatabases, testEnv } from "../../vitest.config.js";

const templateName = decodeURIComponent(new URL(testDatabases.templateUrl).pathname.slice(1));

const root = resolve(import.meta.dirname, "../..");

/**
 * This run's databases: the template migrated once, and the shared test database copied from it
 * (worker test files copy their own, test/setup/worker-database.ts). Redis needs no reset: every
 * key a test makes is its own (rate counters per new API key, a queue prefix per test).
 * And the programs bundled once, as the image runs them (scripts/image/bundle.js), with the demo
 * merchant's step of `npm start` beside them: the processes tests start (the API, the worker, the
 * CLI) load them from there. A process starts on half the CPU it takes from one module per source
 * file (`npm start`'s run folder, which test/start covers), and a third of what it takes through tsx.
 */
async function prepare(): Promise<{ build: string }> {
  const build = join(root, ".data", `test-build-${process.env["PAYREQ_TEST_RUN"]}`);
  await Promise.all([
    bundle(build, [...ENTRY_POINTS, "scripts/start/demo-merchant.ts"]),
    (async () => {
      await createDatabase(testDatabases.templateUrl, { recreate: true });
      await applyMigrations(root, { DATABASE_URL: testDatabases.templateUrl });
      await createDatabase(testEnv.DATABASE_URL, { recreate: true, template: templateName });
    })(),
  ]);
  return { build };
}

/** Everything this run made, and nothing another run made. */
async function cleanUp(build: string): Promise<void> {
  await dropDatabasesStartingWith(testDatabases.templateUrl, testDatabases.workerPrefix);
  await dropDatabase(testEnv.DATABASE_URL);
  await dropDatabase(testDatabases.templateUrl);
  await rm(testEnv.WEBHOOK_SIGNING_KEY_DIR, { recursive: true, force: true });
  await rm(build, { recursive: true, force: true });
}

// Vitest runs global setup once per project (the root, api and worker); the slate is made once.
const shared = globalThis as { [key: symbol]: Promise<{ build: string }> | undefined };
const PREPARED = Symbol.for("payreq.test.prepared");

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's bundles of the programs (test/built.ts). */
    build: string;
  }
}

export default async function setup(project: TestProject) {
  const first = !shared[PREPARED];
  shared[PREPARED] ??= prepare();
  const { build } = await shared[PREPARED];
  project.provide("build", build);
  return first ? () => cleanUp(build) : undefined;
}
