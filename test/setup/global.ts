import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { cachedBundle } from "../../scripts/bundle-cache.js";
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
 * And the programs bundled as `npm start` runs them (scripts/bundle-cache.js; `npm test` bundles
 * them once for its runs): the processes tests start (the API, the worker, the CLI) load them from
 * there, on half the CPU one module per source file takes, and a third of what tsx takes.
 */
async function prepare(): Promise<{ build: string }> {
  const [{ folder: build }] = await Promise.all([
    cachedBundle(root),
    (async () => {
      await createDatabase(testDatabases.templateUrl, { recreate: true });
      await applyMigrations(root, { DATABASE_URL: testDatabases.templateUrl });
      await createDatabase(testEnv.DATABASE_URL, { recreate: true, template: templateName });
    })(),
  ]);
  return { build };
}

/** Everything this run made, and nothing another run made. */
async function cleanUp(): Promise<void> {
  await dropDatabasesStartingWith(testDatabases.templateUrl, testDatabases.workerPrefix);
  await dropDatabase(testEnv.DATABASE_URL);
  await dropDatabase(testDatabases.templateUrl);
  await rm(testEnv.WEBHOOK_SIGNING_KEY_DIR, { recursive: true, force: true });
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
  return first ? cleanUp : undefined;
}
