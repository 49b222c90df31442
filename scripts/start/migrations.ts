import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { quote } from "./database-admin.js";
import { runPrismaCli } from "./prisma-cli.js";

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
 * Whether the database has applied every migration the project holds, and none has failed: read
 * from Prisma's own record of them (`_prisma_migrations`, in the schema the URL names), in one query,
 * where `prisma migrate status` spends seconds of CPU starting its engine to say the same. False
 * when the record is missing (a database Prisma never migrated) or cannot be read: the deploy that
 * follows then says why.
 */
export async function migrationsApplied(root: string, url: string): Promise<boolean> {
  const [names, client] = [await migrationNames(root), new pg.Client({ connectionString: url })];
  const table = `${quote(new URL(url).searchParams.get("schema") ?? "public")}._prisma_migrations`;
  try {
    await client.connect();
    const { rows } = await client.query(
      `SELECT migration_name AS name, finished_at IS NOT NULL AS finished FROM ${table} WHERE rolled_back_at IS NULL`,
    );
    const records = rows as Record<string, unknown>[];
    const applied = new Set(records.filter((row) => row["finished"] === true).map((row) => row["name"]));
    return records.every((row) => row["finished"] === true) && names.every((name) => applied.has(name));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Applies the pending migrations with `prisma migrate deploy` (Prisma 6.19's CLI: its WebAssembly
 * engine, offline), awaited to its exit status. The engine leaves a timer of about 10 seconds
 * behind, which the CLI waits out before it exits.
 */
export const applyMigrations = (root: string, env?: NodeJS.ProcessEnv) =>
  runPrismaCli(root, "migrate", ["migrate", "deploy"], { env });
