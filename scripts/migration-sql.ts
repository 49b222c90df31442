/**
 * `npm run db:migration-sql -- [--from OLD.prisma] [--name NAME]`: the SQL that takes the database from
 * the schema before a change (OLD.prisma; by default prisma/schema.prisma as last committed) to
 * prisma/schema.prisma now. With `--name` it is written as a new migration,
 * prisma/migrations/<yyyymmddhhmmss>_<NAME>/migration.sql, for `npm start` to apply; without, printed.
 *
 * The diff runs on the migration step's CLI (Prisma 6.19, offline; docs/architecture.md), whose
 * schemas must name a URL where Prisma 7's must not: both are copied with one added.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cliEnv, parseEnv } from "../src/env.js";
import { migrationTarget } from "./start/migrations.js";
import { withoutMisleadingNotes } from "./start/prisma-cli.js";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({ options: { from: { type: "string" }, name: { type: "string" } } });
if (values.name !== undefined && !/^[a-z0-9_]+$/.test(values.name)) {
  console.error("db:migration-sql: --name takes lower-case letters, digits and underscores (e.g. add_refund_reason)");
  process.exit(2);
}

/** The schema with a `url` in its datasource block, which an older schema may already have. */
const withUrl = (schema: string) =>
  schema.replace(/(datasource\s+\w+\s*\{)([^}]*?)(\n\})/, (block, open: string, body: string, close: string) =>
    /^\s*url\s*=/m.test(body) ? block : `${open}${body}\n  url      = env("DATABASE_URL")${close}`,
  );

// The CLI connects to the database even to compare two schemas: the one the settings name, read here
// as every entry point reads them (.env in the working directory included), where migrations run.
const { url } = migrationTarget(parseEnv(cliEnv));

const before = values.from
  ? await readFile(values.from, "utf8")
  : execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { cwd: root, encoding: "utf8" });
const after = await readFile(join(root, "prisma", "schema.prisma"), "utf8");

const work = await mkdtemp(join(tmpdir(), "payreq-migration-"));
try {
  await writeFile(join(work, "before.prisma"), withUrl(before));
  await writeFile(join(work, "after.prisma"), withUrl(after));
  // prettier-ignore
  const diff = spawnSync(process.execPath, [
    join(root, "node_modules/prisma6/build/index.js"), "migrate", "diff", "--config", "prisma/migrate/prisma.config.ts",
    "--from-schema-datamodel", join(work, "before.prisma"), "--to-schema-datamodel", join(work, "after.prisma"), "--script",
  ], { cwd: root, encoding: "utf8", env: { ...process.env, DATABASE_DIRECT_URL: url, CHECKPOINT_DISABLE: "1" } });
  process.stderr.write(withoutMisleadingNotes(diff.stderr));
  // On a failure Prisma has said why.
  const sql = diff.status === 0 ? diff.stdout : null;
  if (sql === null) {
    process.exitCode = 1;
  } else if (values.name === undefined) {
    process.stdout.write(sql);
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const folder = join(root, "prisma", "migrations", `${stamp}_${values.name}`);
    await mkdir(folder);
    await writeFile(join(folder, "migration.sql"), sql);
    console.log(`db:migration-sql: wrote ${join("prisma", "migrations", `${stamp}_${values.name}`, "migration.sql")}`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
