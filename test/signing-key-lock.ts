import pg from "pg";
import { config } from "./api-parts.js";

/**
 * The current signing key is one per database, not one per tenant: files that share the test
 * database and rotate it (then check which key is current) would see each other's rotations. Such
 * a check runs inside this lock, a session-level advisory lock on a connection of its own, so no
 * other file's rotation lands in the middle of it. (It is not the transaction-level lock that
 * publishSigningKey takes, which the rotation inside `run` needs to get.)
 */
export async function holdingSigningKeys<T>(run: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: config.db.url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('payreq-test:signing-keys'))");
    return await run();
  } finally {
    await client.end(); // ending the session releases the lock
  }
}
