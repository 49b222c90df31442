/**
 * A copy of the project in a temporary directory (its files linked, not copied) with a `.env` of
 * the test's own, and a database of the test's own, for running the npm scripts there as a
 * newcomer would. The scripts see the test's settings only through that `.env`: the variables it
 * names, and ENV_FILE (the suite's "no settings file"), are taken out of their environment.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { createDatabase, dropDatabase } from "../../scripts/start/database-admin.js";
import { testDatabases } from "../../vitest.config.js";

const root = resolve(import.meta.dirname, "../..");
const linked = [
  "package.json",
  "package-lock.json",
  "node_modules",
  "src",
  "worker",
  "scripts",
  "bench",
  "prisma",
  "prisma.config.ts",
  "tsconfig.json",
  // The bundles the scripts run (scripts/run-bundled.js), made once for the sources.
  ".data",
];

export interface ProjectCopy {
  dir: string;
  /** The environment the scripts run with: the suite's, without ENV_FILE and what `.env` names. */
  env: NodeJS.ProcessEnv;
  /** Runs a command in the copy; a failure is returned, not thrown. */
  run(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs `npm run --silent <args>` in the copy. */
  npm(args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }>;
  remove: () => Promise<void>;
}

export async function projectCopy(settings: Record<string, string>): Promise<ProjectCopy> {
  const dir = await mkdtemp(join(tmpdir(), "payreq-project-"));
  await mkdir(join(root, ".data"), { recursive: true });
  for (const name of linked) await symlink(join(root, name), join(dir, name));
  await writeFile(
    join(dir, ".env"),
    Object.entries(settings)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
  );
  const env = { ...process.env };
  for (const name of ["ENV_FILE", ...Object.keys(settings)]) delete env[name];
  const run: ProjectCopy["run"] = async (file, args, extra = {}) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(file, args, {
        cwd: dir,
        env: { ...env, ...extra },
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  return {
    dir,
    env,
    run,
    npm: (args, extra) => run("npm", ["run", "--silent", ...args], extra),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A migrated database of the test's own (a copy of the run's template), dropped by `drop`. */
export async function ownDatabase() {
  const url = new URL(testDatabases.templateUrl);
  const template = decodeURIComponent(url.pathname.slice(1));
  const name = `${testDatabases.workerPrefix}env_${randomBytes(4).toString("hex")}`;
  url.pathname = `/${name}`;
  await createDatabase(url.toString(), { template });
  return {
    name,
    url: url.toString(),
    /** Runs one query in that database. */
    async query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query<Row>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () => dropDatabase(url.toString()),
  };
}
