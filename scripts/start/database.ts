import pg from "pg";
import { createDatabase } from "./database-admin.js";
import { StartupProblem, hostOf } from "./problem.js";

/**
 * Connects to the configured database, creating it when the server is there but the database is
 * not. Every way this fails becomes one sentence naming what to fix in `setting` (the variable that holds `url`).
 */
export async function ensureDatabase(url: string, setting = "DATABASE_URL"): Promise<"found" | "created"> {
  try {
    await ping(url);
    return "found";
  } catch (err) {
    if (codeOf(err) !== "3D000") throw databaseProblem(url, setting, err);
  }
  await createDatabase(url).catch((err: unknown) => {
    throw databaseProblem(url, setting, err);
  });
  return "created";
}

async function ping(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
  } finally {
    await client.end().catch(() => {});
  }
}

const codeOf = (err: unknown) => (err as { code?: string }).code;

function databaseProblem(url: string, setting: string, err: unknown): StartupProblem {
  const at = hostOf(url, 5432);
  const { username, pathname } = new URL(url);
  const role = decodeURIComponent(username) || "(the default role)";
  const database = decodeURIComponent(pathname.slice(1));
  const message = (err as Error).message;
  switch (codeOf(err)) {
    case "ECONNREFUSED":
      return new StartupProblem(
        `Cannot reach PostgreSQL at ${at}: nothing is listening there. Start PostgreSQL or set ${setting} to a running server.`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupProblem(`Cannot resolve the PostgreSQL host in ${setting} (${at}): fix the host name.`);
    case "28000":
    case "28P01":
      return new StartupProblem(
        `PostgreSQL at ${at} refused role "${role}" (${message}): fix the user or password in ${setting}.`,
      );
    case "42501":
      return new StartupProblem(
        `Database "${database}" does not exist and role "${role}" may not create it: create it, or use a role with CREATEDB in ${setting}.`,
      );
    case undefined:
    default:
      return /timeout/i.test(message)
        ? new StartupProblem(`PostgreSQL at ${at} did not answer within 5 s: check ${setting} and that the server is up.`)
        : new StartupProblem(`PostgreSQL at ${at} refused the connection (${message}): check ${setting}.`);
  }
}
