/**
 * Creates the database named in DATABASE_URL when it does not exist yet, so that
 * `prisma migrate deploy` (which runs through the pg adapter) has something to connect to.
 */
import pg from "pg";
import { config } from "../src/config.js";

const target = new URL(config.db.url);
const name = decodeURIComponent(target.pathname.slice(1));
const admin = new URL(target);
admin.pathname = "/postgres";

const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
try {
  const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (!rowCount) {
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    console.log(`created database ${name}`);
  }
} finally {
  await client.end();
}
