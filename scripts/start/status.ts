/**
 * `npm run db:status`: which migrations the database has applied and which are pending (Prisma's
 * `migrate status`, on the migration step's CLI), and its exit code: 0 when none is pending. The
 * database is the one the settings name, read as every entry point reads them (`.env` included),
 * where migrations run (DATABASE_DIRECT_URL when set).
 */
import { cliEnv, parseEnv } from "../../src/env.js";
import { projectRoot } from "./entrypoints.js";
import { migrationTarget } from "./migrations.js";
import { prismaCliOutput } from "./prisma-cli.js";

const { url } = migrationTarget(parseEnv(cliEnv));
const { code, output } = await prismaCliOutput(projectRoot, "migrate", ["migrate", "status"], {
  env: { DATABASE_DIRECT_URL: url },
});
process.stdout.write(output);
process.exitCode = code ?? 1;
