import type { ChildProcess } from "node:child_process";
import cluster from "node:cluster";
import { reportedPort, spawnNode } from "../node-process.js";
import type { Entrypoint } from "./entrypoints.js";

export interface ProcessGroup {
  /** Resolves with the port the API listens on once every API process listens; rejects when a process stops first. */
  listening: Promise<number>;
  /** Resolves with the exit code for the whole group once every process has stopped. */
  stopped: Promise<number>;
  /** What a process said stopped it (one sentence each, sent as `{ problem }`), to repeat to the operator. */
  problems: string[];
  /** The API processes that said they listen and are running: the metrics are asked of them. */
  answering(): ChildProcess[];
  /** Stops the group as SIGTERM does, saying why; `code` is its exit code when the processes' own are 0. */
  stop(reason: string, code?: number): void;
}

/**
 * Once the group is ready, a process that stops is started again after `firstMs`, doubled each
 * time the same process stops again, up to `maxMs`; one that ran `resetAfterMs` starts from `firstMs`.
 * A process that cannot start (a database that refuses it) is retried without spinning.
 */
const RESTART_DELAYS = { firstMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };

/** One process of the group, started again each time it stops while the group runs. */
interface Slot {
  /** As the supervisor names it to the operator: "the API", "API process 2", "the worker". */
  name: string;
  api: boolean;
  start(): ChildProcess;
  child?: ChildProcess;
  startedAt: number;
  /** Times it stopped without running `resetAfterMs` in between: the next delay's exponent. */
  stopsInARow: number;
  restart?: NodeJS.Timeout;
  /** It said it listens (`{ listening: port }`). */
  answering: boolean;
  /** When it last stopped, while the group ran. */
  stoppedAt?: number;
  /** It said what stops it (`{ problem }`): a problem to fix, not a crash to restart. */
  saidWhy?: boolean;
}

export interface ProcessGroupOptions {
  stopTimeoutMs: number;
  say: (line: string) => void;
  /** How many API processes share its port; undefined: one, run as any other process (watch mode). */
  apiProcesses?: number;
}

/**
 * Runs the processes as one group: SIGTERM or SIGINT stops them all (each shuts down gracefully,
 * and is killed if it has not within `stopTimeoutMs`). With `apiProcesses`, that many API
 * processes share the API's port: this process is their cluster's primary, which holds the
 * listening socket and hands each new connection to the next of them in turn, so while one is
 * down the others take every call. Until every API process listens, a process that stops stops
 * the others, and the group's exit code is its code (a configuration problem must not loop), as
 * does one that says what stopped it; after that one that stops is started again (RESTART_DELAYS). Nothing is left running behind the supervisor.
 */
export function runProcessGroup(
  entrypoints: Entrypoint[],
  { stopTimeoutMs, say, apiProcesses }: ProcessGroupOptions,
): ProcessGroup {
  let exitCode: number | undefined;
  let stopping = false;
  let ready = false;
  const problems: string[] = [];
  const slots = slotsFor(entrypoints, apiProcesses);

  let resolveStopped!: (code: number) => void;
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));
  const settle = () => {
    if (slots.every((s) => !s.child && !s.restart)) resolveStopped(exitCode ?? 0);
  };

  function stopAll(reason: string, code?: number) {
    if (stopping) return;
    stopping = true;
    if (code) exitCode ??= code;
    for (const s of slots) {
      clearTimeout(s.restart);
      s.restart = undefined;
    }
    const running = slots.filter((s) => s.child);
    if (running.length) say(`${reason}: stopping ${namesOf(running)}`);
    for (const s of running) s.child!.kill("SIGTERM");
    killAfter(slots, stopTimeoutMs, say);
    settle();
  }

  function ended(s: Slot, code: number | null, signal: NodeJS.Signals | null) {
    s.child = undefined;
    s.answering = false;
    const how = signal ?? `exit code ${code}`;
    if (stopping) {
      // Ended by the SIGTERM it was sent (one still starting has no handler yet) is stopped as asked.
      if (code !== 0 && signal !== "SIGTERM") exitCode ??= code ?? 1;
    } else if (!ready || s.saidWhy) {
      // Before the group is ready, or when it said what stopped it (a key it cannot read), starting
      // it again would only fail again: the operator must fix something first.
      say(`${s.name} stopped (${how})`);
      exitCode = code || 1;
      stopAll(`${s.name} stopped`);
    } else restartLater(s, how, say, run);
    settle();
  }

  function run(s: Slot): ChildProcess {
    const child = s.start();
    s.child = child;
    s.startedAt = performance.now();
    child.on("message", (message: ProcessMessage | null) => heard(s, child, message, { problems, say }));
    child.once("exit", (code, signal) => ended(s, code, signal));
    return child;
  }

  const firstStarts = slots.map((s) => ({ s, child: run(s) }));
  // The API waits up to 30 s for Redis before it listens; a start slower than this is stuck.
  const apis = firstStarts.filter(({ s }) => s.api).map(({ s, child }) => reportedPort(child, s.name, 5 * 60_000));
  const listening = apis.length
    ? Promise.all(apis).then(([port]) => {
        ready = !stopping;
        return port!;
      })
    : Promise.reject(new Error("the group runs no API"));
  listening.catch(() => {});

  for (const signal of signals) process.on(signal, () => stopAll(signal));
  return {
    listening,
    stopped,
    problems,
    answering: () => slots.filter((s) => s.api && s.answering && s.child).map((s) => s.child!),
    stop: stopAll,
  };
}

const signals = ["SIGTERM", "SIGINT"] as const;

/**
 * One slot per process: an entrypoint each, but the API, with `apiProcesses`, as that many
 * workers of this process's cluster, which share its port.
 */
function slotsFor(entrypoints: Entrypoint[], apiProcesses: number | undefined): Slot[] {
  const slot = (name: string, api: boolean, start: () => ChildProcess): Slot => ({
    name,
    api,
    start,
    startedAt: 0,
    stopsInARow: 0,
    answering: false,
  });
  const slots: Slot[] = [];
  for (const { name, args } of entrypoints) {
    if (name === "API" && apiProcesses !== undefined) {
      cluster.setupPrimary({
        exec: args.at(-1)!,
        execArgv: args.slice(0, -1),
        // Not the supervisor's own (`--demo`), which a fork would otherwise be given.
        args: [],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      for (let i = 1; i <= apiProcesses; i++)
        slots.push(slot(apiProcesses === 1 ? "the API" : `API process ${i}`, true, () => cluster.fork().process));
    } else slots.push(slot(`the ${name}`, name === "API", () => spawnNode(args)));
  }
  return slots;
}

/** Kills (SIGKILL) the processes still running `stopTimeoutMs` after they were asked to stop. */
function killAfter(slots: Slot[], stopTimeoutMs: number, say: (line: string) => void) {
  setTimeout(() => {
    for (const s of slots.filter((s) => s.child)) {
      say(`${s.name} did not stop within ${stopTimeoutMs / 1000} s: killing it`);
      s.child!.kill("SIGKILL");
    }
  }, stopTimeoutMs).unref();
}

/** Starts a process of a ready group that stopped again after its delay (RESTART_DELAYS). */
function restartLater(s: Slot, how: string, say: (line: string) => void, run: (s: Slot) => unknown) {
  if (performance.now() - s.startedAt >= RESTART_DELAYS.resetAfterMs) s.stopsInARow = 0;
  const delay = Math.min(RESTART_DELAYS.maxMs, RESTART_DELAYS.firstMs * 2 ** s.stopsInARow++);
  s.stoppedAt = performance.now();
  say(`${s.name} stopped (${how}): starting it again in ${delay / 1000} s`);
  s.restart = setTimeout(() => {
    s.restart = undefined;
    run(s);
  }, delay);
}

/** What a process tells the group: what stopped it (`problem`), or that it listens. */
type ProcessMessage = { problem?: unknown; listening?: unknown };

/** Notes what a process said: a problem to repeat to the operator, or that it answers (again). */
function heard(
  s: Slot,
  child: ChildProcess,
  message: ProcessMessage | null,
  { problems, say }: { problems: string[]; say: (line: string) => void },
) {
  if (typeof message?.problem === "string") {
    problems.push(message.problem);
    s.saidWhy = true;
  }
  if (typeof message?.listening !== "number") return;
  s.answering = true;
  if (s.stoppedAt !== undefined)
    say(
      `${s.name} answers again (pid ${child.pid}), ${((performance.now() - s.stoppedAt) / 1000).toFixed(1)} s after it stopped`,
    );
}

/** "the API", "API process 1 and API process 2", "API process 1, API process 2 and the worker". */
const namesOf = (slots: Slot[]) => {
  const names = slots.map((s) => s.name);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
};

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
