import { loadEnvFile } from "../../src/env-file.js";
import { apiEnv, parseEnv, workerEnv } from "../../src/env.js";
import { checkConfiguration } from "./configuration.js";
import { ensureDatabase } from "./database.js";
import { projectRoot } from "./entrypoints.js";
import { applyMigrations, migrationNames, migrationsApplied, type MigrationTarget } from "./migrations.js";
import { StartupProblem, hostOf } from "./problem.js";

export type Say = (line: string) => void;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * The steps before the processes start, each saying what it did and throwing a StartupProblem that
 * says what to fix. First: read the settings file and check the whole configuration (`apiOnly`:
 * the API's alone, for a group of API processes without the worker).
 */
export function readConfiguration({ apiOnly = false } = {}) {
  try {
    loadEnvFile();
  } catch (err) {
    throw new StartupProblem((err as Error).message);
  }
  checkConfiguration(process.env, apiOnly ? { API: apiEnv } : undefined);
  return { api: parseEnv(apiEnv), worker: apiOnly ? undefined : parseEnv(workerEnv) };
}

/**
 * Creates the database when missing, and applies migrations only when some are pending. With
 * `waitMs`, a PostgreSQL not accepting connections yet is waited for that long (DATABASE_WAIT_TIMEOUT).
 */
export async function prepareDatabase({ url, setting }: MigrationTarget, say: Say, { waitMs = 0 } = {}): Promise<void> {
  const database = `database "${decodeURIComponent(new URL(url).pathname.slice(1))}" at ${hostOf(url, 5432)}`;
  const wait = { timeoutMs: waitMs, setting: "DATABASE_WAIT_TIMEOUT", say };
  const created = (await ensureDatabase(url, setting, wait)) === "created";
  if (created) say(`created the ${database}`);
  // The CLI reads the URL from its configuration (prisma/migrate/): handed over, it is the one checked here.
  const cliEnv = { DATABASE_DIRECT_URL: url };
  if (!created && (await migrationsApplied(projectRoot, url))) {
    say(`the ${database} is at the latest migration`);
    return;
  }
  const since = performance.now();
  // A database just made has applied none; of another, only Prisma's own table would tell how many.
  const count = created ? (await migrationNames(projectRoot)).length : 0;
  say(`applying ${count ? `${count} migration${count > 1 ? "s" : ""}` : "the pending migrations"} to the ${database}…`);
  await applyMigrations(projectRoot, cliEnv);
  say(`migrations applied (${seconds(since)})`);
}
