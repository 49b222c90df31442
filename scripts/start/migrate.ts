/**
 * `npm run db:deploy`, and the migration step of a deployment (`node dist/scripts/start/migrate.js`):
 * checks the configuration, waits for PostgreSQL to accept connections (up to DATABASE_WAIT_TIMEOUT:
 * a deployment may start it and this step at once), creates the database when missing and applies
 * pending migrations.
 */
import { migrationEnv, parseEnv } from "../../src/env.js";
import { migrationTarget } from "./migrations.js";
import { prepareDatabase, readConfiguration } from "./prepare.js";
import { StartupProblem } from "./problem.js";

try {
  const say = (line: string) => console.log(`payreq: ${line}`);
  readConfiguration();
  const env = parseEnv(migrationEnv, process.env);
  await prepareDatabase(migrationTarget(env), say, { waitMs: env.DATABASE_WAIT_TIMEOUT });
} catch (err) {
  if (!(err instanceof StartupProblem)) throw err;
  console.error(`payreq: ${err.message}`);
  process.exitCode = 1;
}
