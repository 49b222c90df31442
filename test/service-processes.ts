import { reportedPort, spawnNode } from "../scripts/node-process.js";
import { testDatabases, testEnv } from "../vitest.config.js";
import { config } from "./api-parts.js";
import { built } from "./built.js";
import { until } from "./until.js";

/**
 * This file's database and signing-key directory, made by test/setup/worker-database.ts before
 * anything loaded src/api/config.ts. Spawned API and worker processes inherit them through process.env.
 */
export const fileEnv = {
  DATABASE_URL: process.env["DATABASE_URL"] ?? "",
  WEBHOOK_SIGNING_KEY_DIR: process.env["WEBHOOK_SIGNING_KEY_DIR"] ?? "",
};
if (
  !fileEnv.DATABASE_URL.includes(`/${testDatabases.workerPrefix}`) ||
  config.db.url !== fileEnv.DATABASE_URL ||
  fileEnv.WEBHOOK_SIGNING_KEY_DIR === testEnv.WEBHOOK_SIGNING_KEY_DIR
) {
  throw new Error(
    `a file that starts the service's processes needs a database of its own (test/setup/worker-database.ts): DATABASE_URL is ${fileEnv.DATABASE_URL}, src/api/config.ts read ${config.db.url}`,
  );
}

/** Starts the API as its own process (on this file's database) on a free loopback port and waits until it answers. */
export async function startApiProcess(env: Record<string, string> = {}) {
  // Port 0: the system picks a free port and the process reports it. A port picked here at random
  // could be taken meanwhile by another process.
  const child = spawnNode([...built("src/api/server.ts")], {
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  // Keep reading its output so a chatty process never blocks on a full pipe.
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await reportedPort(child, "the API process", 20_000).catch((err: Error) => {
    throw new Error(`${err.message}:\n${output.slice(-2000)}`);
  });
  const base = `http://127.0.0.1:${port}`;
  const up = () =>
    fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    );
  await until(up, (status) => status === 200, 20_000, `the API process at ${base} to answer /health with 200`);
  return {
    base,
    output: () => output,
    kill: () => child.kill("SIGKILL"),
    /** Sends `signal` and resolves with the exit code. */
    stop: (signal: NodeJS.Signals) => (child.kill(signal), exited),
  };
}
