/**
 * Every entry point reads `.env` the same way (variables already set win): each npm script runs in
 * a copy of the project whose `.env` names a database (and ports, key directory) of the test's own,
 * and must act there, never on the default database.
 */
import { freePorts } from "../../scripts/engines/free-ports.js";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../until.js";
import { ownDatabase, projectCopy } from "./project-copy.js";

const migrations = readdirSync(resolve(import.meta.dirname, "../../prisma/migrations"), { withFileTypes: true }).filter((e) =>
  e.isDirectory(),
).length;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(settings: (database: string) => Record<string, string> = () => ({})) {
  const database = await ownDatabase();
  cleanups.push(database.drop);
  const project = await projectCopy({ DATABASE_URL: database.url, ...settings(database.url) });
  cleanups.push(project.remove);
  // A table of the test's own, which a reset drops with the rest.
  await database.query("CREATE TABLE env_marker (id int)");
  const marked = async () => (await database.query("SELECT to_regclass('env_marker') AS t"))[0]!["t"] !== null;
  return { database, project, marked };
}

/**
 * What Prisma 6.19's CLI says and is not so for the db:* scripts, which read .env and give the
 * adapter the URL: that the schema's url "will NOT be used", that it is "skipping environment
 * variable loading".
 */
const misleading = /\bWARNING\b|will NOT be used|skipping environment variable loading/i;

const freePort = async () => (await freePorts(1))[0]!;

/** Each test runs npm and the service's scripts in a copy of the project: seconds of CPU apiece while other work keeps the cores busy. */
const PROCESS_TESTS_MS = 60_000;

describe("npm run db:reset", { timeout: PROCESS_TESTS_MS }, () => {
  it("names the database .env gives and resets nothing without being told that name", async () => {
    const { database, project, marked } = await setUp();
    const refused = await project.npm(["db:reset"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the database "${database.name}" at 127.0.0.1:5432`);
    expect(refused.stderr).toContain(`npm run db:reset -- --database ${database.name}`);

    const wrongName = await project.npm(["db:reset", "--", "--database", "payreq"]);
    expect(wrongName.code).toBe(1);
    expect(wrongName.stderr).toMatch(
      /--database names "payreq", but DATABASE_URL names the database "payreq_test_w_.*nothing was reset/,
    );
    expect(await marked()).toBe(true);
  });

  it("resets that database, and only it, when given its name", async () => {
    const { database, project, marked } = await setUp();
    const reset = await project.npm(["db:reset", "--", "--database", database.name]);
    expect(reset.stderr + reset.stdout).toContain(`reset the database "${database.name}" at 127.0.0.1:5432`);
    expect(reset.stderr + reset.stdout).not.toMatch(misleading);
    expect(reset.code).toBe(0);
    expect(await marked()).toBe(false);
    const applied = await database.query("SELECT 1 FROM _prisma_migrations WHERE finished_at IS NOT NULL");
    expect(applied).toHaveLength(migrations);
  });
});

describe("npm run db:deploy and Prisma's own commands", { timeout: PROCESS_TESTS_MS }, () => {
  it("db:deploy checks the database .env names", async () => {
    const { database, project } = await setUp();
    const { code, stdout, stderr } = await project.npm(["db:deploy"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`the database "${database.name}" at 127.0.0.1:5432 is at the latest migration`);
    expect(stdout + stderr).not.toMatch(misleading);
  });

  it("db:status (Prisma's migrate status) reads the database .env names", async () => {
    const { database, project } = await setUp();
    const { code, stdout, stderr } = await project.npm(["db:status"]);
    expect(code).toBe(0);
    expect(stdout + stderr).toContain(`PostgreSQL database "${database.name}"`);
    expect(stdout + stderr).toContain("Database schema is up to date");
    expect(stdout + stderr).not.toMatch(misleading);
  });

  it("db:migration-sql says nothing misleading either", async () => {
    const { project } = await setUp();
    const { code, stdout, stderr } = await project.npm(["db:migration-sql"]);
    expect({ code, misleading: misleading.exec(stdout + stderr)?.[0] }).toEqual({ code: 0, misleading: undefined });
  });
});

describe("npm run start:api and start:worker", { timeout: PROCESS_TESTS_MS }, () => {
  it("start:api listens on the PORT .env gives", async () => {
    const port = await freePort();
    const { project } = await setUp(() => ({ PORT: String(port), METRICS_PORT: "0" }));
    const child = spawn("npm", ["run", "--silent", "start:api"], { cwd: project.dir, env: project.env, stdio: "ignore" });
    cleanups.push(async () => {
      child.kill("SIGTERM");
      await until(() => child.exitCode !== null || child.signalCode !== null, Boolean);
    });
    const health = () =>
      fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.status,
        () => 0,
      );
    // npm, then the API through tsx: seconds of CPU, which a machine busy with other work spreads thin.
    expect(await until(health, (status) => status !== 0, PROCESS_TESTS_MS - 10_000)).toBe(200);
  });

  it("start:worker works in the database .env names", async () => {
    const keyDir = await mkdtemp(join(tmpdir(), "payreq-env-keys-"));
    cleanups.push(() => rm(keyDir, { recursive: true, force: true }));
    const { database, project } = await setUp(() => ({
      WEBHOOK_SIGNING_KEY_DIR: keyDir,
      QUEUE_PREFIX: `env-${Date.now()}`,
      NODE_ENV: "development",
    }));
    const child = spawn("npm", ["run", "--silent", "start:worker"], { cwd: project.dir, env: project.env, stdio: "ignore" });
    cleanups.push(async () => {
      child.kill("SIGTERM");
      await until(() => child.exitCode !== null || child.signalCode !== null, Boolean);
    });
    // A worker starting on an empty key directory in development publishes a new key in its database.
    const keys = () => database.query("SELECT kid FROM signing_key");
    // npm, then the worker through tsx, as start:api above.
    expect(await until(keys, (rows) => rows.length > 0, PROCESS_TESTS_MS - 10_000)).toHaveLength(1);
  });
});

describe("npm run bench", { timeout: PROCESS_TESTS_MS }, () => {
  it("reads its settings file as the other entry points do", async () => {
    const { project } = await setUp();
    // bench/run.ts, as `npm run bench` runs it after `npm run setup`.
    const bench = ["--import", "tsx", "bench/run.ts", "--quick"];
    const { code, stderr } = await project.run(process.execPath, bench, { ENV_FILE: "missing.env" });
    expect(code).not.toBe(0);
    expect(stderr).toContain("ENV_FILE names missing.env, which does not exist");
  });
});
