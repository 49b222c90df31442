/**
 * Creates the database named in a connection string when it does not exist (`npm start`), or drops
 * and recreates it (the test suite's clean slate). `prisma migrate deploy` then fills it.
 */
import { pathToFileURL } from "node:url";
import pg from "pg";

export async function createDatabase(url: string, { recreate = false } = {}): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const quoted = `"${name.replaceAll('"', '""')}"`;
  const admin = new URL(target);
  admin.pathname = "/postgres";

  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    if (recreate) await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoted}`);
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { config } = await import("../src/config.js");
  await createDatabase(config.db.url);
}
