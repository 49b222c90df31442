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
 * Adds the variables of `ENV_FILE` (default `.env` in the working directory, when it exists) to
 * `env`; a variable already set, even to nothing, wins over the file. `ENV_FILE=` (empty) reads no
 * file: the test suite sets it, so a developer's `.env` never reaches a test. A file that
 * `ENV_FILE` names must exist. Node's own parser reads it, as `node --env-file` would.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): void {
  const named = env["ENV_FILE"];
  if (named === "") return;
  const file = named ?? DEFAULT_FILE;
  if (!existsSync(file)) {
    if (named === undefined) return;
    throw new Error(`ENV_FILE names ${file}, which does not exist: fix the path or unset ENV_FILE.`);
  }
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, "utf8")))) env[name] ??= value;
}
