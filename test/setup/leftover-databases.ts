import { quote, withAdmin } from "../../scripts/start/database-admin.js";

/** Drops every database whose name starts with `prefix` on the server `url` names (a test run's leftovers). */
export async function dropDatabasesStartingWith(url: string, prefix: string): Promise<string[]> {
  return withAdmin(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname",
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
    return rows.map((row) => row.datname);
  });
}
