/**
 * `npm run db:reset -- --database NAME` (or `--yes`): drops every table of the database that
 * DATABASE_URL names (DATABASE_DIRECT_URL when set: where migrations run) and applies all
 * migrations again. Without that confirmation it names the database it would reset and changes
 * nothing.
 */
import { parseArgs } from "node:util";
import { cliEnv, parseEnv } from "../../src/env.js";
import { projectRoot } from "./entrypoints.js";
import { migrationTarget } from "./migrations.js";
import { runPrismaCli } from "./prisma-cli.js";
import { StartupProblem, hostOf } from "./problem.js";

const say = (line: string) => console.log(`payreq: ${line}`);
const refuse = (line: string, code = 1) => {
  console.error(`payreq: ${line}`);
  process.exit(code);
};

const { values: flags } = (() => {
  try {
    return parseArgs({ options: { database: { type: "string" }, yes: { type: "boolean", default: false } } });
  } catch (err) {
    return refuse(`${(err as Error).message}. Usage: npm run db:reset -- --database NAME (or --yes)`, 2);
  }
})();
const { url, setting } = migrationTarget(parseEnv(cliEnv));
const name = decodeURIComponent(new URL(url).pathname.slice(1));
const database = `the database "${name}" at ${hostOf(url, 5432)}`;

if (flags.database === undefined && !flags.yes)
  refuse(
    `db:reset would drop every table of ${database} (named by ${setting}) and apply all migrations again: ` +
      `all its data would be lost. To go ahead, name it: npm run db:reset -- --database ${name} (or --yes).`,
  );
if (flags.database !== undefined && flags.database !== name)
  refuse(`--database names "${flags.database}", but ${setting} names ${database}: nothing was reset.`);

try {
  say(`resetting ${database}…`);
  // Generating the client is `npm run setup`'s work; no seed is configured.
  await runPrismaCli(projectRoot, "migrate", ["migrate", "reset", "--force", "--skip-generate", "--skip-seed"], {
    env: { DATABASE_DIRECT_URL: url },
  });
  say(`reset ${database}: every table dropped and all migrations applied`);
} catch (err) {
  if (!(err instanceof StartupProblem)) throw err;
  refuse(err.message);
}
