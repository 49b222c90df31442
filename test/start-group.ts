/**
 * A process group as an operator starts it (`npm start`, `npm run dev`, the production build's
 * start): spawned with a mark in its environment, so that whatever it started is found and, when
 * the test ends, killed.
 */
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { expect, onTestFinished } from "vitest";
import { until } from "./until.js";

export interface Process {
  pid: number;
  /** Its parent's pid. */
  parent: number;
  command: string;
  args: string[];
  /** NODE_OPTIONS in its environment. */
  nodeOptions: string;
}

/** Every process whose environment carries `mark`: what a group started with it left running. */
export function processesMarked(mark: string): Process[] {
  const found = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      if (!environ.includes(mark)) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").slice(0, -1);
      // The fields after the command's name, which is in parentheses: state, then the parent's pid.
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const nodeOptions = environ.find((entry) => entry.startsWith("NODE_OPTIONS="))?.slice("NODE_OPTIONS=".length) ?? "";
      found.push({ pid: Number(pid), parent, command: args.join(" "), args, nodeOptions });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Starts a command as `npm start` would be, and waits until it says the API is ready. */
export async function startGroup(command: string, args: string[], env: Record<string, string>) {
  const mark = `PAYREQ_START_TEST=${randomUUID()}`;
  const child = spawn(command, args, {
    env: {
      ...process.env,
      PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "info",
      // One API process, whatever the machine's cores (test/topology/api-processes.test.ts runs several).
      API_PROCESSES: "1",
      // Its own queues: another run of this suite may share the Redis.
      QUEUE_PREFIX: `test-${randomUUID()}`,
      ...env,
      [mark.split("=")[0]!]: mark.split("=")[1]!,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Whatever the test's outcome, nothing it started outlives it.
  onTestFinished(() => {
    for (const { pid } of processesMarked(mark)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // exited meanwhile
      }
    }
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const ready = await until(
    () => (gone ? "exited" : /payreq: ready in [\d.]+ s: GraphQL at http:\/\/(localhost|[\d.]+):(\d+)\/graphql/.exec(output)),
    (found) => found !== null,
    60_000,
    `"${command} ${args.join(" ")}" to say it is ready`,
  );
  if (ready === "exited") throw new Error(`${command} ${args.join(" ")} exited before it was ready:\n${output}`);
  return {
    base: `http://${ready![1] === "localhost" ? "127.0.0.1" : ready![1]}:${ready![2]}`,
    output: () => output,
    processes: () => processesMarked(mark),
    /** Its exit code, or "still running" after 30 s. */
    exited: () => Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 30_000))]),
    stop(signal: NodeJS.Signals) {
      child.kill(signal);
      return this.exited();
    },
  };
}

/** What `npm start` with `env` says on standard error when it refuses to start (exit code 1, within 30 s). */
export async function refusal(env: Record<string, string>): Promise<string> {
  const refused = await promisify(execFile)("npm", ["start"], {
    env: { ...process.env, PORT: "0", METRICS_PORT: "0", ...env },
    timeout: 30_000,
  }).catch((error: { code: number; stderr: string }) => error);
  expect("code" in refused && refused.code).toBe(1);
  return refused.stderr.trim();
}
