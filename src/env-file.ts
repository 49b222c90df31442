/**
 * How every entry point reads its settings file: the API, the worker, the CLI, `npm start`, the
 * `db:*` scripts (through `parseEnv` in env.ts), and the bench and Prisma's own commands (which
 * call it themselves). It imports nothing but Node, because prisma.config.ts imports it too.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";

/** The file read when `ENV_FILE` is not set; it may be absent. */
const DEFAULT_FILE = ".env";

/**
 * Reads the settings file, then the database password file (loadDatabasePassword): what every
 * entry point does before parsing its settings.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): void {
  readSettingsFile(env);
  loadDatabasePassword(env);
}

/**
 * Adds the variables of `ENV_FILE` (default `.env` in the working directory, when it exists) to
 * `env`; a variable already set, even to nothing, wins over the file. `ENV_FILE=` (empty) reads no
 * file: the test suite sets it, so a developer's `.env` never reaches a test. A file that
 * `ENV_FILE` names must exist. Node's own parser reads it, as `node --env-file` would.
 */
function readSettingsFile(env: NodeJS.ProcessEnv): void {
  const named = env["ENV_FILE"];
  if (named === "") return;
  const file = named ?? DEFAULT_FILE;
  if (!existsSync(file)) {
    if (named === undefined) return;
    throw new Error(`ENV_FILE names ${file}, which does not exist: fix the path or unset ENV_FILE.`);
  }
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, "utf8")))) env[name] ??= value;
}

/**
 * Puts the password in `DATABASE_PASSWORD_FILE` (a Compose or Kubernetes secret; one final newline
 * is dropped) into `DATABASE_URL`, so the URL itself holds no secret; and into `DATABASE_DIRECT_URL`
 * and `DATABASE_READ_URL` when they are set without a password of their own (the same role, reached
 * past a pooler or on a replica).
 */
export function loadDatabasePassword(env: NodeJS.ProcessEnv = process.env): void {
  const file = env["DATABASE_PASSWORD_FILE"];
  if (!file) return;
  if (!env["DATABASE_URL"] || !URL.canParse(env["DATABASE_URL"]))
    throw new Error("DATABASE_PASSWORD_FILE is set, so DATABASE_URL must be set to a URL (without the password).");
  let password: string;
  try {
    password = readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch (err) {
    throw new Error(`DATABASE_PASSWORD_FILE names ${file}, which cannot be read (${(err as NodeJS.ErrnoException).code}).`, {
      cause: err,
    });
  }
  env["DATABASE_URL"] = withPassword(env["DATABASE_URL"], password);
  for (const name of ["DATABASE_DIRECT_URL", "DATABASE_READ_URL"]) {
    const other = env[name];
    // One that is not a URL is left for the settings' check to name.
    if (other && URL.canParse(other) && !new URL(other).password) env[name] = withPassword(other, password);
  }
}

function withPassword(text: string, password: string): string {
  const url = new URL(text);
  url.password = encodeURIComponent(password);
  return url.toString();
}
