import { loadEnvFile } from "../env-file.js";
import { apiEnv, parseEnv, workerEnv } from "../env.js";
import { checkConfiguration } from "./configuration.js";
import { ensureDatabase } from "./database.js";
import { projectRoot } from "./entrypoints.js";
import { applyMigrations, pendingMigrations } from "./migrations.js";
import { StartupProblem, hostOf } from "./problem.js";

export type Say = (line: string) => void;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * The steps before the processes start, each saying what it did and throwing a StartupProblem that
 * says what to fix. First: read the settings file and check the whole configuration.
 */
export function readConfiguration() {
  try {
    loadEnvFile();
  } catch (err) {
    throw new StartupProblem((err as Error).message);
  }
  checkConfiguration();
  return { api: parseEnv(apiEnv), worker: parseEnv(workerEnv) };
}

/** Creates the database when missing, and applies migrations only when some are pending. */
export async function prepareDatabase(url: string, say: Say): Promise<void> {
  const database = `database "${decodeURIComponent(new URL(url).pathname.slice(1))}" at ${hostOf(url, 5432)}`;
  if ((await ensureDatabase(url)) === "created") say(`created the ${database}`);
  const pending = await pendingMigrations(url, projectRoot);
  if (pending.length) {
    const since = performance.now();
    say(`applying ${pending.length} migration${pending.length > 1 ? "s" : ""} to the ${database}…`);
    await applyMigrations(projectRoot);
    say(`migrations applied (${seconds(since)})`);
  } else {
    say(`the ${database} is at the latest migration`);
  }
}
