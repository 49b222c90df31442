/**
 * Creates the database named in a connection string when it does not exist (`npm start`), or drops
 * and recreates it (the test suite's clean slate). `prisma migrate deploy` then fills it, unless it
 * is made as a copy of a `template` database that is already migrated (PostgreSQL copies it whole;
 * nobody may be connected to the template meanwhile).
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

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function withAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
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
  const { name, quoted, admin } = parse(url);
  await withAdmin(admin, async (client) => {
    if (recreate) await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoted}${template ? ` TEMPLATE ${quote(template)}` : ""}`);
  });
}

/** Drops the database named in a connection string, closing any connections to it (PostgreSQL 13+). */
export async function dropDatabase(url: string): Promise<void> {
  const { quoted, admin } = parse(url);
  await withAdmin(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`));
}

/** Drops every database whose name starts with `prefix` (a test run's leftovers). */
export async function dropDatabasesStartingWith(url: string, prefix: string): Promise<string[]> {
  const { admin } = parse(url);
  return withAdmin(admin, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname",
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
    return rows.map((row) => row.datname);
  });
}
