import type { ChildProcess } from "node:child_process";
import { reportedPort, spawnNode } from "../node-process.js";
import type { Entrypoint } from "./entrypoints.js";

export interface Supervised {
  /** Resolves with the port the API listens on, or rejects when a process stops first. */
  listening: Promise<number>;
  /** Resolves with the exit code for the whole group once every process has stopped. */
  stopped: Promise<number>;
  /** What a process said stopped it (one sentence each, sent as `{ problem }`), to repeat to the operator. */
  problems: string[];
}

/**
 * Runs the processes as one group: SIGTERM or SIGINT stops them all (each shuts down gracefully,
 * and is killed if it has not within `stopTimeoutMs`); one that stops by itself stops the others,
 * and the group's exit code is its code. Nothing is left running behind the supervisor.
 */
export function supervise(
  entrypoints: Entrypoint[],
  { stopTimeoutMs, say }: { stopTimeoutMs: number; say: (line: string) => void },
): Supervised {
  let exitCode: number | undefined;
  let signalled = false;
  const running = new Map<ChildProcess, string>();
  const problems: string[] = [];
  let listening: Promise<number> = Promise.reject(new Error("the group runs no API"));
  listening.catch(() => {});

  function stopAll(reason: string) {
    if (signalled) return;
    signalled = true;
    if (running.size) say(`${reason}: stopping ${[...running.values()].join(" and ")}`);
    for (const child of running.keys()) child.kill("SIGTERM");
    setTimeout(() => {
      for (const [child, name] of running) {
        say(`${name} did not stop within ${stopTimeoutMs / 1000} s: killing it`);
        child.kill("SIGKILL");
      }
    }, stopTimeoutMs).unref();
  }

  const stopped = new Promise<number>((resolve) => {
    for (const { name, args } of entrypoints) {
      const child = spawnNode(args);
      running.set(child, name);
      if (name === "API") {
        // The API waits up to 30 s for Redis before it listens; a start slower than this is stuck.
        listening = reportedPort(child, "the API", 5 * 60_000);
        listening.catch(() => {});
      }
      child.on("message", (message: { problem?: string }) => {
        if (typeof message.problem === "string") problems.push(message.problem);
      });
      child.once("exit", (code, signal) => {
        running.delete(child);
        if (!signalled) {
          say(`the ${name} stopped (${signal ?? `exit code ${code}`})`);
          exitCode = code || 1;
          stopAll(`the ${name} stopped`);
        } else if (code !== 0) {
          exitCode ??= code ?? 1;
        }
        if (running.size === 0) resolve(exitCode ?? 0);
      });
    }
  });

  for (const signal of signals) process.on(signal, () => stopAll(signal));
  return { listening, stopped, problems };
}

const signals = ["SIGTERM", "SIGINT"] as const;

/**
 * Runs one of scripts/start's short-lived steps (the preflight, the demo merchant) to its end, with
 * the supervisor's standard output and error: resolves with how it ended and the first message it
 * sent. SIGTERM and SIGINT are passed on to it, and it is stopped when `cancel` settles.
 */
export function runStep<Message>(
  args: string[],
  cancel?: Promise<unknown>,
): Promise<{ code: number; ended: string; message?: Message }> {
  const child = spawnNode(args);
  let message: Message | undefined;
  child.once("message", (sent) => (message = sent as Message));
  const passOn = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of signals) process.on(signal, passOn);
  const stop = () => void child.kill("SIGTERM");
  cancel?.then(stop, stop);
  // "close", not "exit": it comes once the IPC channel is closed too, so every message has arrived.
  return new Promise((resolve) =>
    child.once("close", (code, signal) => {
      for (const signal of signals) process.off(signal, passOn);
      resolve({ code: code ?? 1, ended: signal ?? `exit code ${code}`, message });
    }),
  );
}
