/**
 * Databases made and dropped through the server's `postgres` database: `npm start` creates the
 * database named in a connection string when it does not exist; the tests and the bench make and
 * drop databases of their own. `prisma migrate deploy` then fills a new one, unless it is made as a
 * copy of a `template` database that is already migrated (PostgreSQL copies it whole; nobody may be
 * connected to the template meanwhile).
 */
import pg from "pg";

/** The database a connection string names, quoted as an SQL identifier, and the admin connection beside it. */
function parse(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(target);
  admin.pathname = "/postgres";
  return { name, quoted: quote(name), admin: admin.toString() };
}

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Runs `run` on a connection to the `postgres` database of the server `url` names. */
export async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: parse(url).admin });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(
  url: string,
  { recreate = false, template }: { recreate?: boolean; template?: string } = {},
): Promise<void> {
  const { name, quoted } = parse(url);
  await withAdmin(url, async (client) => {
    if (recreate) await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoted}${template ? ` TEMPLATE ${quote(template)}` : ""}`);
  });
}

/** Drops the database named in a connection string, closing any connections to it (PostgreSQL 13+). */
export async function dropDatabase(url: string): Promise<void> {
  const { quoted } = parse(url);
  await withAdmin(url, (client) => client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`));
}
