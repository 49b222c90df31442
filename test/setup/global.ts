import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { createDatabase, dropDatabase } from "../../scripts/start/database-admin.js";
import { dropDatabasesStartingWith } from "./leftover-databases.js";
import { applyMigrations } from "../../scripts/start/migrations.js";
import { testDatabases, testEnv } from "../../vitest.config.js";

const templateName = decodeURIComponent(new URL(testDatabases.templateUrl).pathname.slice(1));

/**
 * This run's databases: the template migrated once, and the shared test database copied from it
 * (worker test files copy their own, test/setup/worker-database.ts). Redis needs no reset: every
 * key a test makes is its own (rate counters per new API key, a queue prefix per test).
 */
async function prepare(): Promise<void> {
  await createDatabase(testDatabases.templateUrl, { recreate: true });
  await applyMigrations(resolve(import.meta.dirname, "../.."), { DATABASE_URL: testDatabases.templateUrl });
  await createDatabase(testEnv.DATABASE_URL, { recreate: true, template: templateName });
}

/** Everything this run made, and nothing another run made. */
async function cleanUp(): Promise<void> {
  await dropDatabasesStartingWith(testDatabases.templateUrl, testDatabases.workerPrefix);
  await dropDatabase(testEnv.DATABASE_URL);
  await dropDatabase(testDatabases.templateUrl);
  await rm(testEnv.WEBHOOK_SIGNING_KEY_DIR, { recursive: true, force: true });
}

// Vitest runs global setup once per project (the root, api and worker); the slate is made once.
const shared = globalThis as { [key: symbol]: Promise<void> | undefined };
const PREPARED = Symbol.for("payreq.test.prepared");

export default async function setup() {
  const first = !shared[PREPARED];
  shared[PREPARED] ??= prepare();
  await shared[PREPARED];
  return first ? cleanUp : undefined;
}
