import pg from "pg";
import { readUntil } from "../../src/poll.js";
import { createDatabase } from "./database-admin.js";
import { StartupProblem, hostOf } from "./problem.js";

/** How long to wait for a PostgreSQL that is not accepting connections yet, the setting that says so, and where to tell. */
export interface DatabaseWait {
  timeoutMs: number;
  setting: string;
  say: (line: string) => void;
}

/**
 * Connects to the configured database, creating it when the server is there but the database is
 * not. Every way this fails becomes one sentence naming what to fix in `setting` (the variable that
 * holds `url`). With `wait`, a server that is not accepting connections yet (refused, starting up)
 * is waited for, saying so once, until `wait.timeoutMs` has passed.
 */
export async function ensureDatabase(url: string, setting = "DATABASE_URL", wait?: DatabaseWait): Promise<"found" | "created"> {
  const failure = await pingFailure(url, wait);
  if (!failure) return "found";
  if (codeOf(failure.err) !== "3D000") throw databaseProblem(url, setting, failure.err, failure.waited);
  await createDatabase(url).catch((err: unknown) => {
    throw databaseProblem(url, setting, err);
  });
  return "created";
}

/**
 * Failures that say PostgreSQL is not serving yet rather than that a setting is wrong: nothing
 * listening (a container's first start runs a setup server without TCP first), "the database
 * system is starting up" (57P03), a connection cut or unanswered, a name not resolvable for now.
 */
const notUpYet = (err: unknown) =>
  ["ECONNREFUSED", "ECONNRESET", "EAI_AGAIN", "57P03"].includes(codeOf(err) ?? "") || /timeout/i.test((err as Error).message);

/** Why `url` cannot be queried (none: it can), once waited for as `wait` says while PostgreSQL is not up yet. */
async function pingFailure(url: string, wait?: DatabaseWait): Promise<{ err: unknown; waited?: DatabaseWait } | undefined> {
  const attempt = () =>
    ping(url).then(
      () => null,
      (err: unknown) => ({ err }),
    );
  const first = await attempt();
  if (!first || !wait?.timeoutMs || !notUpYet(first.err)) return first ?? undefined;
  const at = hostOf(url, 5432);
  const why = codeOf(first.err) === "ECONNREFUSED" ? "nothing is listening there" : (first.err as Error).message;
  wait.say(
    `PostgreSQL at ${at} is not accepting connections yet (${why}); waiting up to ${wait.timeoutMs / 1000} s (${wait.setting})…`,
  );
  const since = performance.now();
  const { value } = await readUntil(attempt, (failure) => !failure || !notUpYet(failure.err), wait.timeoutMs, 500);
  if (value && notUpYet(value.err)) return { err: value.err, waited: wait };
  wait.say(`PostgreSQL at ${at} answers (after ${((performance.now() - since) / 1000).toFixed(1)} s)`);
  return value ?? undefined;
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

function databaseProblem(url: string, setting: string, err: unknown, waited?: DatabaseWait): StartupProblem {
  const at = hostOf(url, 5432);
  // After a wait, the sentence says how long it was and which setting gives more.
  const within = waited ? ` within ${waited.timeoutMs / 1000} s (${waited.setting})` : "";
  const { username, pathname } = new URL(url);
  const role = decodeURIComponent(username) || "(the default role)";
  const database = decodeURIComponent(pathname.slice(1));
  const message = (err as Error).message;
  switch (codeOf(err)) {
    case "ECONNREFUSED":
      return new StartupProblem(
        `Cannot reach PostgreSQL at ${at}${within}: nothing is listening there. Start PostgreSQL or set ${setting} to a running server.`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupProblem(`Cannot resolve the PostgreSQL host in ${setting} (${at})${within}: fix the host name.`);
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
        ? new StartupProblem(
            `PostgreSQL at ${at} did not answer${within || " within 5 s"}: check ${setting} and that the server is up.`,
          )
        : new StartupProblem(`PostgreSQL at ${at} refused the connection (${message})${within}: check ${setting}.`);
  }
}
