import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFile, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createDatabase, dropDatabase } from "../../scripts/start/database-admin.js";
import { until } from "../../src/poll.js";
import { startDaemon, type Daemon } from "./daemon.js";
import { freePorts } from "./free-ports.js";
import { postgresAnswers } from "./postgres-answers.js";

const run = promisify(execFile);
/** The PostgreSQL server programs of this machine (initdb, postgres, pg_basebackup). */
export const POSTGRES_BIN = "/usr/lib/postgresql/15/bin";

export interface PostgresReplica {
  /** The primary's `postgres` database (user postgres, trust): make databases on it; the replica receives them. */
  primaryUrl: string;
  /** The streaming replica's `postgres` database: read-only, hot standby. */
  replicaUrl: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root: as root (CI), its programs run as the `postgres` user, with
 * setpriv (which execs, so signals reach the server itself); as anyone else, as that user.
 */
export async function asPostgres(): Promise<{
  wrap: (command: string, args: string[]) => [string, string[]];
  owner?: [number, number];
}> {
  if (process.getuid?.() !== 0) return { wrap: (command, args) => [command, args] };
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return {
    wrap: (command, args) => ["setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", command, ...args]],
    owner: [Number(uid.stdout), Number(gid.stdout)],
  };
}

const answers = (url: string, sql?: string) => () => postgresAnswers(url, sql);

/**
 * A primary and a streaming replica made from it with `pg_basebackup -R`, on free loopback ports,
 * in a temporary directory removed at stop. Made for speed, not safety: no fsync, small buffers.
 */
export async function startPostgresReplica(): Promise<PostgresReplica> {
  const { wrap, owner } = await asPostgres();
  const dir = await mkdtemp(join(tmpdir(), "payreq-pg-replica-"));
  if (owner) await chown(dir, ...owner);
  const [primaryPort, replicaPort] = await freePorts(2);
  const primaryDir = join(dir, "primary");
  const replicaDir = join(dir, "replica");
  const url = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const daemons: Daemon[] = [];
  const stop = async () => {
    // Immediate shutdown: the directories are thrown away.
    for (const daemon of daemons.reverse()) await daemon.stop("SIGQUIT");
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run(
      ...wrap(`${POSTGRES_BIN}/initdb`, [
        "-D",
        primaryDir,
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
      ]),
    );
    // initdb's pg_hba.conf already trusts replication connections from loopback.
    await appendFile(
      join(primaryDir, "postgresql.conf"),
      [
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        "wal_level = replica",
        "max_wal_senders = 4",
        "hot_standby = on",
        "fsync = off",
        "full_page_writes = off",
        "shared_buffers = 16MB",
        "",
      ].join("\n"),
    );
    const server = (name: string, dataDir: string, port: number) => {
      const [command, args] = wrap(`${POSTGRES_BIN}/postgres`, ["-D", dataDir, "-p", String(port)]);
      return startDaemon(name, command, args, answers(url(port)));
    };
    daemons.push(await server("postgres primary", primaryDir, primaryPort!));
    await run(
      ...wrap(`${POSTGRES_BIN}/pg_basebackup`, [
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "postgres",
        "-D",
        replicaDir,
        "-R",
        "-X",
        "stream",
        "--no-sync",
      ]),
    );
    daemons.push(await server("postgres replica", replicaDir, replicaPort!));
    await until(
      answers(url(primaryPort!), "SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'"),
      Boolean,
      20_000,
      "the replica to stream from the primary",
      100,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { primaryUrl: url(primaryPort!), replicaUrl: url(replicaPort!), stop };
}

/**
 * A copy of the database `from` (on any server) made on the primary as `name`, for files to make
 * theirs from (CREATE DATABASE … TEMPLATE): pg_dump piped into psql, schema and rows.
 */
export async function copyDatabase(from: string, engine: PostgresReplica, name: string): Promise<void> {
  const to = databaseUrl(engine.primaryUrl, name);
  await createDatabase(to);
  await run("sh", ["-c", 'pg_dump --no-owner --no-privileges "$0" | psql -q -v ON_ERROR_STOP=1 "$1"', from, to]);
}

/**
 * A database of its own on the primary, copied from `template`, once the replica has it too (it
 * arrives by replication); `drop` removes it from both.
 */
export async function replicatedDatabase(engine: Pick<PostgresReplica, "primaryUrl" | "replicaUrl">, template: string) {
  const name = `payreq_replicated_${randomBytes(6).toString("hex")}`;
  const urls = { primaryUrl: databaseUrl(engine.primaryUrl, name), replicaUrl: databaseUrl(engine.replicaUrl, name) };
  await createDatabase(urls.primaryUrl, { template });
  await until(() => answers(urls.replicaUrl)().catch(() => false), Boolean, 20_000, `database ${name} on the replica`, 50);
  return { ...urls, drop: () => dropDatabase(urls.primaryUrl) };
}

const databaseUrl = (serverUrl: string, name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
