import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { prismaCliSucceeds, runPrismaCli } from "./prisma-cli.js";

/**
 * Where migrations run, and the setting that names it: PostgreSQL itself (DATABASE_DIRECT_URL) when
 * DATABASE_URL names a transaction-mode pooler, since Prisma's migrate holds a session advisory
 * lock across its transactions. prisma/migrate/prisma.config.ts picks the same URL.
 */
export const migrationTarget = (env: { DATABASE_URL: string; DATABASE_DIRECT_URL?: string | undefined }) =>
  env.DATABASE_DIRECT_URL
    ? { url: env.DATABASE_DIRECT_URL, setting: "DATABASE_DIRECT_URL" }
    : { url: env.DATABASE_URL, setting: "DATABASE_URL" };

export type MigrationTarget = ReturnType<typeof migrationTarget>;

/** The migrations the project holds (`prisma/migrations`), by name. */
export async function migrationNames(root: string): Promise<string[]> {
  const folders = await readdir(join(root, "prisma", "migrations"), { withFileTypes: true });
  return folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * Whether the database has applied every migration: `prisma migrate status` exits 0 when it has,
 * and non-zero when migrations are pending, have failed, or the database cannot be read (the
 * deploy that follows then says which).
 */
export const migrationsApplied = (root: string, env?: NodeJS.ProcessEnv) =>
  prismaCliSucceeds(root, "migrate", ["migrate", "status"], { env });

/**
 * Applies the pending migrations with `prisma migrate deploy` (Prisma 6.19's CLI: its WebAssembly
 * engine, offline), awaited to its exit status. The engine leaves a timer of about 10 seconds
 * behind, which the CLI waits out before it exits.
 */
export const applyMigrations = (root: string, env?: NodeJS.ProcessEnv) =>
  runPrismaCli(root, "migrate", ["migrate", "deploy"], { env });
