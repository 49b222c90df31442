import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { Redis } from "ioredis";
import type { TestProject } from "vitest/node";
import { createDatabase, dropDatabasesStartingWith } from "../../prisma/create-database.js";
import { testDatabases, testEnv } from "../../vitest.config.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** This run's id: worker test files name their databases with it, and the run drops what they leave. */
    testRunId: string;
  }
}

const templateName = decodeURIComponent(new URL(testDatabases.templateUrl).pathname.slice(1));

/**
 * A clean slate per run: the template database recreated and migrated, the shared test database
 * copied from it, databases of earlier runs' worker files dropped, the test Redis db flushed.
 */
async function prepare(): Promise<string> {
  await dropDatabasesStartingWith(testDatabases.templateUrl, testDatabases.workerPrefix);
  await createDatabase(testDatabases.templateUrl, { recreate: true });
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: testDatabases.templateUrl },
    stdio: "pipe",
  });
  await createDatabase(testEnv.DATABASE_URL, { recreate: true, template: templateName });
  // Signing keys belong to the database they are published in.
  await rm(testEnv.WEBHOOK_SIGNING_KEY_DIR, { recursive: true, force: true });
  const redis = new Redis(testEnv.REDIS_URL);
  await redis.flushdb();
  await redis.quit();
  return randomBytes(4).toString("hex");
}

// Vitest runs global setup once per project (the root, api and worker); the slate is made once.
const shared = globalThis as { [key: symbol]: Promise<string> | undefined };
const PREPARED = Symbol.for("payreq.test.prepared");

export default async function setup(project: TestProject) {
  const first = !shared[PREPARED];
  shared[PREPARED] ??= prepare();
  const runId = await shared[PREPARED];
  project.provide("testRunId", runId);
  if (!first) return;
  // Each worker file drops its own database; this catches those of files that died first.
  return async () => {
    await dropDatabasesStartingWith(testDatabases.templateUrl, `${testDatabases.workerPrefix}${runId}_`);
  };
}
