/**
 * A first `docker compose up` on a new volume, without Docker: the PostgreSQL image first runs a
 * setup server on its Unix socket alone (TCP off), stops it, and starts the real server on the
 * network. Here a throwaway PostgreSQL of this machine plays both: started with `listen_addresses`
 * empty, then again listening on 127.0.0.1. compose.yaml's health check must not pass on the first,
 * and the migration service's command must wait through it (up to DATABASE_WAIT_TIMEOUT).
 */
import { execFile, spawn } from "node:child_process";
import { chown, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { spawnNode } from "../../scripts/node-process.js";
import { startDaemon, type Daemon } from "../../scripts/engines/daemon.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import { postgresAnswers } from "../../scripts/engines/postgres-answers.js";
import { asPostgres, POSTGRES_BIN } from "../../scripts/engines/postgres-replica.js";
import { built } from "../built.js";
import { until } from "../until.js";

const root = resolve(import.meta.dirname, "../..");
const compose = async () =>
  parse(await readFile(join(root, "compose.yaml"), "utf8"), { merge: true }) as {
    services: Record<string, { command?: string[]; healthcheck?: { test?: string[] } }>;
  };

let dir: string;
let port: number;
let server: Daemon | undefined;
let wrap: Awaited<ReturnType<typeof asPostgres>>["wrap"];
const tcpUrl = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;

beforeAll(async () => {
  const postgresUser = await asPostgres();
  wrap = postgresUser.wrap;
  dir = await mkdtemp(join(tmpdir(), "payreq-pg-first-start-"));
  if (postgresUser.owner) await chown(dir, ...postgresUser.owner);
  [port] = (await freePorts(1)) as [number];
  await promisify(execFile)(
    ...wrap(`${POSTGRES_BIN}/initdb`, ["-D", join(dir, "data"), "-U", "postgres", "--auth=trust", "--locale=C", "--no-sync"]),
  );
});
afterEach(async () => {
  await server?.stop("SIGQUIT");
  server = undefined;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts the throwaway server on its socket (in `dir`) and, with `tcp`, on 127.0.0.1 too; resolves once it answers there. */
async function startPostgres({ tcp }: { tcp: boolean }) {
  await server?.stop("SIGQUIT");
  const settings = [`listen_addresses=${tcp ? "127.0.0.1" : ""}`, `unix_socket_directories=${dir}`, "fsync=off"];
  const [command, args] = wrap(`${POSTGRES_BIN}/postgres`, [
    "-D",
    join(dir, "data"),
    "-p",
    String(port),
    ...settings.flatMap((s) => ["-c", s]),
  ]);
  const socketUrl = `postgresql://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${port}`;
  server = await startDaemon(`postgres (${tcp ? "TCP" : "socket only"})`, command, args, () =>
    postgresAnswers(tcp ? tcpUrl("postgres") : socketUrl),
  );
}

describe("compose.yaml's PostgreSQL health check", () => {
  /** Runs the check as Docker would in the container, whose server's socket and port are these. */
  async function healthCheck(): Promise<number | null> {
    const [kind, command] = (await compose()).services.postgres!.healthcheck!.test!;
    expect(kind).toBe("CMD-SHELL");
    const child = spawn("sh", ["-c", command!], {
      env: { PATH: process.env.PATH, PGHOST: dir, PGPORT: String(port) },
      stdio: "ignore",
    });
    return new Promise((done) => child.once("exit", done));
  }

  it("fails while PostgreSQL serves its socket alone (the image's setup server), and passes once it serves TCP", async () => {
    await startPostgres({ tcp: false });
    expect(await healthCheck(), "healthy while no other container can connect").not.toBe(0);
    await startPostgres({ tcp: true });
    expect(await healthCheck()).toBe(0);
  });
});

describe("compose.yaml's migration", () => {
  /** Runs the migrate service's command against the throwaway server's `payreq` database. */
  async function migrate(env: Record<string, string> = {}) {
    const [node, ...args] = (await compose()).services.migrate!.command!;
    expect([node, args]).toEqual(["node", ["dist/scripts/start/migrate.js"]]);
    const child = spawnNode(built("scripts/start/migrate.ts"), {
      env: { ...process.env, NODE_ENV: "production", DATABASE_URL: tcpUrl("payreq"), ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    let [stdout, stderr] = ["", ""];
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
    const exit = { code: undefined as number | null | undefined };
    child.once("exit", (code) => (exit.code = code));
    return {
      child,
      output: () => ({ stdout, stderr }),
      exited: (timeoutMs: number) =>
        until(
          () => exit.code,
          (code) => code !== undefined,
          timeoutMs,
          () => `the migration to exit; it said: ${stdout}${stderr}`,
        ),
    };
  }

  it("waits while PostgreSQL does not accept connections, then creates the database and applies every migration", async () => {
    expect(process.env["DATABASE_WAIT_TIMEOUT"], "the default, as compose.yaml runs it").toBeUndefined();
    await startPostgres({ tcp: false });
    const run = await migrate();
    try {
      await until(
        () => run.output().stdout,
        (said) => said.includes("is not accepting connections yet"),
        15_000,
        "the migration to say it waits",
      );
      expect(run.output().stdout).toMatch(
        new RegExp(
          `^payreq: PostgreSQL at 127\\.0\\.0\\.1:${port} is not accepting connections yet \\(nothing is listening there\\); waiting up to 60 s \\(DATABASE_WAIT_TIMEOUT\\)…$`,
          "m",
        ),
      );
      await startPostgres({ tcp: true });
      expect(await run.exited(45_000)).toBe(0);
    } finally {
      run.child.kill("SIGKILL");
    }
    expect(run.output().stderr).toBe("");
    expect(run.output().stdout).toMatch(/^payreq: PostgreSQL at \S+ answers \(after [\d.]+ s\)$/m);
    const client = new pg.Client({ connectionString: tcpUrl("payreq") });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL",
      );
      const migrations = (await readdir(join(root, "prisma/migrations"), { withFileTypes: true })).filter((e) => e.isDirectory());
      expect(rows[0]!.n).toBe(migrations.length);
    } finally {
      await client.end();
    }
  });

  it("gives up after DATABASE_WAIT_TIMEOUT with one sentence and exit code 1", async () => {
    await startPostgres({ tcp: false });
    const started = performance.now();
    const run = await migrate({ DATABASE_WAIT_TIMEOUT: "2s" });
    try {
      expect(await run.exited(20_000)).toBe(1);
    } finally {
      run.child.kill("SIGKILL");
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    const { stderr } = run.output();
    expect(stderr).toMatch(
      new RegExp(
        `^payreq: Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port} within 2 s \\(DATABASE_WAIT_TIMEOUT\\): nothing is listening there\\. Start PostgreSQL or set DATABASE_URL to a running server\\.\\n$`,
      ),
    );
  });
});
