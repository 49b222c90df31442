import pg from "pg";

/** Whether PostgreSQL (or a pooler) at `url` answers `sql` with a row, within a second; a refusal is an error. */
export async function postgresAnswers(url: string, sql = "SELECT 1"): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return ((await client.query(sql)).rowCount ?? 0) > 0;
  } finally {
    await client.end().catch(() => {});
  }
}
