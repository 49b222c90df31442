import { sql } from "kysely";
import { database } from "../db.js";

/**
 * Resolves once PostgreSQL answers a statement that reads nothing; fails as the statement fails
 * (isDatabaseUnavailable tells an outage). What a process that waits for its database, and its
 * heartbeat, ask.
 */
export async function databaseAnswers(): Promise<void> {
  await sql`SELECT 1`.execute(database);
}
