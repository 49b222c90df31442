/**
 * Setup of every file of the own-database and topology projects (their setupFiles), run before the file imports
 * anything: a database of its own, copied from the migrated template, and a signing-key directory
 * of its own. process.env points at both before src/api/config.ts is first imported (Vitest loads
 * modules afresh per file), so the file's `db`, its workers, and the API and worker processes it
 * spawns (they inherit process.env) all use them. A worker delivers and sweeps everything in its
 * database; here, everything is this file's. Both are removed after the file's own afterAll hooks.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createDatabase, dropDatabase } from "../../scripts/start/database-admin.js";
import { testDatabases } from "../../vitest.config.js";

const url = new URL(testDatabases.templateUrl);
const template = decodeURIComponent(url.pathname.slice(1));
url.pathname = `/${testDatabases.workerPrefix}${randomBytes(6).toString("hex")}`;
const databaseUrl = url.toString();

await createDatabase(databaseUrl, { template });
const keyDir = await mkdtemp(join(tmpdir(), "payreq-test-signing-keys-"));
process.env["DATABASE_URL"] = databaseUrl;
process.env["WEBHOOK_SIGNING_KEY_DIR"] = keyDir;

// Registered before the file's own hooks, so it runs after them (hooks unwind as a stack): the
// file has closed its workers and killed its processes; FORCE ends connections still open.
afterAll(async () => {
  await dropDatabase(databaseUrl);
  await rm(keyDir, { recursive: true, force: true });
});
