/**
 * `npm run db:deploy`, and the migration step of a deployment (`node dist/scripts/start/migrate.js`):
 * checks the configuration, creates the database when missing and applies pending migrations.
 */
import { migrationTarget } from "./migrations.js";
import { prepareDatabase, readConfiguration } from "./prepare.js";
import { StartupProblem } from "./problem.js";

try {
  const say = (line: string) => console.log(`payreq: ${line}`);
  const { api } = readConfiguration();
  await prepareDatabase(migrationTarget(api), say);
} catch (err) {
  if (!(err instanceof StartupProblem)) throw err;
  console.error(`payreq: ${err.message}`);
  process.exitCode = 1;
}
