/**
 * The project's TypeScript entry points the bench runs itself, through tsx: the baseline server
 * (long-running) and the admin CLI (to its end). Each is tracked by lifecycle.ts and has a deadline.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { reportedPort, spawnNode, type NodeProcessOptions } from "../scripts/node-process.js";
import { fail, isStopping, track } from "./lifecycle.js";
import { waitUntil } from "./load.js";

function spawnScript(script: string, args: string[], options: NodeProcessOptions) {
  const child = spawnNode(["--import", "tsx", script, ...args], options);
  const release = track({
    stop: () => killNow(child),
    kill: () => child.kill("SIGKILL"),
  });
  child.once("exit", release);
  return child;
}

function killNow(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  return exited;
}

/**
 * Starts a long-running script; its ending before the bench does, or before `stop` is called, fails
 * the bench. `stop` ends it gracefully (SIGTERM) and resolves once it has exited.
 */
export function startProcess(script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; stop(): Promise<void> } {
  const child = spawnScript(script, [], { env });
  let stopped = false;
  child.once("exit", (code, signal) => {
    if (!isStopping() && !stopped) void fail(`bench: ${script} stopped unexpectedly (${signal ?? `exit code ${code}`})`);
  });
  return {
    child,
    async stop() {
      stopped = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Starts a server script (the baseline, an API) and resolves with the port it reports over IPC, within 30 s. */
export function startServer(
  script: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; port: Promise<number>; stop(): Promise<void> } {
  const started = startProcess(script, env);
  return { ...started, port: reportedPort(started.child, `bench: ${script}`) };
}

/** Starts a helper that takes commands on standard input and reports on standard output (a flooder); stopped with the bench. */
export function startHelper(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawnScript(script, args, { env, stdin: "pipe", stdout: "pipe" });
}

/** A helper process's JSON lines, and a wait (30 s unless told) for the next of a kind after a point. */
export function helperLines(child: ChildProcess) {
  const messages: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => messages.push(JSON.parse(line) as Record<string, unknown>));
  const failure = () => messages.find((message) => message.failure)?.failure;
  return {
    messages,
    failure,
    async next(kind: string, after: number, what: string, timeoutMs = 30_000) {
      await waitUntil(
        () => what,
        () => {
          if (failure()) throw new Error(`bench: ${String(failure())}`);
          return messages.slice(after).some((message) => message[kind] !== undefined);
        },
        timeoutMs,
        5,
      );
      return messages.slice(after).find((message) => message[kind] !== undefined)![kind];
    },
  };
}

/** Runs a project script to its end within `timeoutMs`; its standard output. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<string> {
  const child = spawnScript(script, args, { env, stdout: "pipe" });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bench: ${script} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`bench: ${script} failed (${signal ?? `exit code ${code}`}): ${output.slice(0, 500)}`));
    });
  });
}

/** The admin CLI's answer (`--json`) to one command. */
export async function admin(env: NodeJS.ProcessEnv, ...words: string[]): Promise<Record<string, string>> {
  return JSON.parse(await runScript("src/cli/admin.ts", [...words, "--json"], env)) as Record<string, string>;
}
