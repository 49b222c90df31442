import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon } from "./daemon.js";
import { freePorts } from "./free-ports.js";
import { postgresAnswers } from "./postgres-answers.js";

const PGBOUNCER = "/usr/sbin/pgbouncer";

/**
 * PgBouncer in transaction mode in front of the system PostgreSQL (127.0.0.1:5432), as managed
 * PostgreSQL offerings put it: every database of the server is reachable through it by name, as the
 * client's own role (PostgreSQL trusts loopback here). A database's clients share `poolSize` server
 * connections, fewer than a service process's pool holds, so consecutive transactions of one client
 * connection really do land on different server connections.
 */
export async function startPgbouncer({ poolSize = 10 } = {}) {
  const port = (await freePorts(1))[0]!;
  const dir = await mkdtemp(join(tmpdir(), "payreq-pgbouncer-"));
  const config = join(dir, "pgbouncer.ini");
  await writeFile(join(dir, "users.txt"), '"postgres" ""\n');
  await writeFile(
    config,
    [
      "[databases]",
      "* = host=127.0.0.1 port=5432",
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 2000",
      `default_pool_size = ${poolSize}`,
      // pg and Prisma's migration engine send these at startup; PgBouncer refuses a client that sends
      // a parameter it does not know unless told to ignore it.
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: as root, it runs as the postgres user, which must read its files.
  await Promise.all([chmod(dir, 0o755), chmod(config, 0o644), chmod(join(dir, "users.txt"), 0o644)]);
  const asRoot = process.getuid?.() === 0;
  const [command, args] = asRoot ? ["runuser", ["-u", "postgres", "--", PGBOUNCER, config]] : [PGBOUNCER, [config]];
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const daemon = await startDaemon("pgbouncer", command, args, () => postgresAnswers(url)).catch(async (err: Error) => {
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    port,
    output: daemon.output,
    async stop() {
      await daemon.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `url` (a database of the system PostgreSQL) reached through the PgBouncer on `port` instead. */
export function throughPgbouncer(url: string, port: number): string {
  const pooled = new URL(url);
  pooled.host = `127.0.0.1:${port}`;
  return pooled.toString();
}
