/**
 * A first `docker compose up` on a new volume, without Docker: the PostgreSQL image first runs a
 * setup server on its Unix socket alone (TCP off), stops it, and starts the real server on the
 * network. Here a throwaway PostgreSQL of this machine plays both: started with `listen_addresses`
 * empty, then again listening on 127.0.0.1. compose.yaml's health check must not pass on the first.
 */
import { execFile, spawn } from "node:child_process";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startDaemon, type Daemon } from "../../scripts/engines/daemon.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import { postgresAnswers } from "../../scripts/engines/postgres-answers.js";
import { asPostgres, POSTGRES_BIN } from "../../scripts/engines/postgres-replica.js";

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
}, 60_000);
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
  }, 30_000);
});
