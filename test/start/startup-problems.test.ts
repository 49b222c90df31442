/**
 * What `npm start` says when it cannot start: one sentence naming what to fix, exit code 1, no
 * stack trace, nothing started.
 */
import { built } from "../built.js";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase } from "../../scripts/start/database-admin.js";
import { testDatabases } from "../../vitest.config.js";

const run = promisify(execFile);

/** Runs what `npm start` runs once its dependencies are installed. */
async function start(env: Record<string, string>) {
  try {
    await run(process.execPath, ["scripts/start.js"], {
      env: { ...process.env, PORT: "0", METRICS_PORT: "0", ...env },
      timeout: 30_000,
    });
    return { code: 0, stderr: "" };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));

describe("npm start refuses to start, saying what to fix in one sentence", () => {
  let held: Server;
  let heldPort: number;
  /** A loopback port where nothing listens: one that was just freed. */
  let closedPort: number;
  beforeAll(async () => {
    held = createServer();
    heldPort = await listen(held);
    const probe = createServer();
    closedPort = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
  });
  afterAll(() => new Promise((resolve) => held.close(resolve)));

  const cases: [string, () => Record<string, string>, RegExp][] = [
    [
      "a DATABASE_URL that is not a URL",
      () => ({ DATABASE_URL: "not-a-url" }),
      /^payreq: The configuration is invalid: DATABASE_URL \(expected a PostgreSQL URL[^\n]*\)\. Fix the environment or \.env/,
    ],
    [
      "several bad variables at once",
      () => ({ PORT: "http", WEBHOOK_TIMEOUT: "soon" }),
      /^payreq: The configuration is invalid: PORT \([^)]*\), WEBHOOK_TIMEOUT \([^)]*\)\./,
    ],
    [
      "Redis not running",
      () => ({ REDIS_URL: `redis://127.0.0.1:${closedPort}` }),
      /^payreq: Cannot reach Redis at 127\.0\.0\.1:\d+: nothing is listening there\. Start Redis or set REDIS_URL/,
    ],
    [
      "the port in use",
      () => ({ PORT: String(heldPort) }),
      /^payreq: Port \d+ is already in use \(another npm start\?\): stop the process holding it or set PORT to a free port\./,
    ],
    [
      "a HOST that is not an IP address",
      () => ({ HOST: "localhost" }),
      /^payreq: The configuration is invalid: HOST \(an IP address of this machine, such as 127\.0\.0\.1[^\n]*\)\. Fix the environment or \.env/,
    ],
    [
      "a HOST that is not this machine's",
      // TEST-NET-1 (RFC 5737): never an address of this machine.
      () => ({ HOST: "192.0.2.1", PORT: "4000" }),
      /^payreq: HOST 192\.0\.2\.1 is not an address of this machine: set HOST to one of its addresses, or to 0\.0\.0\.0 or :: for every interface\./,
    ],
    [
      "PostgreSQL not running",
      () => ({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${closedPort}/payreq` }),
      /^payreq: Cannot reach PostgreSQL at 127\.0\.0\.1:\d+: nothing is listening there\. Start PostgreSQL or set DATABASE_URL/,
    ],
    [
      // Migrations run past a pooler: the sentence names the setting they use.
      "PostgreSQL not running at DATABASE_DIRECT_URL",
      () => ({ DATABASE_DIRECT_URL: `postgresql://postgres@127.0.0.1:${closedPort}/payreq` }),
      /^payreq: Cannot reach PostgreSQL at 127\.0\.0\.1:\d+: nothing is listening there\. Start PostgreSQL or set DATABASE_DIRECT_URL/,
    ],
    [
      "a role PostgreSQL refuses",
      () => ({ DATABASE_URL: `postgresql://nobody_${randomUUID().slice(0, 8)}@127.0.0.1:5432/payreq` }),
      /^payreq: PostgreSQL at 127\.0\.0\.1:5432 refused role "nobody_\w+" \([^)]*\): fix the user or password in DATABASE_URL\./,
    ],
  ];

  it.each(cases)("%s", async (_, env, sentence) => {
    const { code, stderr } = await start(env());
    expect(code).toBe(1);
    expect(stderr).toMatch(sentence);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("npm start with a signing key the worker cannot read", () => {
  // A database of its own: its current signing key is this test's alone.
  const url = new URL(testDatabases.templateUrl);
  const template = decodeURIComponent(url.pathname.slice(1));
  url.pathname = `/${testDatabases.workerPrefix}keys_${randomUUID().slice(0, 8)}`;
  const databaseUrl = url.toString();
  let keyDir: string;
  beforeAll(async () => {
    await createDatabase(databaseUrl, { template });
    keyDir = await mkdtemp(join(tmpdir(), "payreq-test-keys-"));
  });
  afterAll(async () => {
    await dropDatabase(databaseUrl);
    await rm(keyDir, { recursive: true, force: true });
  });

  it("says so in one sentence naming the file, exits 1, and the key stays current", async () => {
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_SIGNING_KEY_DIR: keyDir };
    // The operator CLI makes the current key, as it always has...
    const rotate = () =>
      run(process.execPath, [...built("src/cli/admin.ts"), "signing-key", "rotate", "--json"], {
        env: { ...process.env, ...env },
      }).then(({ stdout }) => JSON.parse(stdout) as { kid: string; file: string });
    const { kid, file } = await rotate();
    // ...and its file becomes unreadable: a directory where the file should be.
    await rm(file);
    await mkdir(file);

    const { code, stderr } = await start({ ...env, NODE_ENV: "production" });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^payreq: The signing key file ${file} cannot be read \\(EISDIR, it is a directory\\): [^\\n]*\\.$`, "m"),
    );
    expect(stderr.trim().split("\n")).toHaveLength(1);
    // Not replaced: the key the CLI made is still the only one, and current.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ kid: string; retired_at: Date | null }>("SELECT kid, retired_at FROM signing_key");
      expect(rows).toEqual([{ kid, retired_at: null }]);
    } finally {
      await client.end();
    }
  });
});
