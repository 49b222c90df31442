import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { runPrismaCli } from "./prisma-cli.js";

/**
 * The migrations in `prisma/migrations` that the database has not applied, by comparing the folder
 * with Prisma's `_prisma_migrations` table: a few milliseconds, where `prisma migrate deploy` takes
 * seconds even when there is nothing to do.
 */
export async function pendingMigrations(url: string, root: string): Promise<string[]> {
  const folders = await readdir(join(root, "prisma", "migrations"), { withFileTypes: true });
  const available = folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const applied = new Set(await appliedMigrations(url));
  return available.filter((name) => !applied.has(name)).sort();
}

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    return rows.map((row) => row.migration_name);
  } catch (err) {
    if ((err as { code?: string }).code === "42P01") return []; // a new database: no table yet
    throw err;
  } finally {
    await client.end();
  }
}

/** Applies the pending migrations with `prisma migrate deploy` (Prisma 6.19's CLI: its WebAssembly engine, offline). */
export const applyMigrations = (root: string, env?: NodeJS.ProcessEnv) =>
  runPrismaCli(root, "migrate", ["migrate", "deploy"], {
    env,
    doneWhen: /^(All migrations have been successfully applied|No pending migrations to apply)\.$/m,
  });
