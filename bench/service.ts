/**
 * The service as an operator starts it: `npm start`, whose supervisor (scripts/start/main.ts) prepares
 * the database, checks Redis and the ports, and runs the API and the worker as its children. The
 * bench learns the processes from the process table rather than from how they are started
 * (through tsx or not, with a bootstrap or not), and stops the whole group on every way out.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fail, isStopping, track } from "./lifecycle.js";
import { listProcesses, type ProcessEntry } from "./proc.js";

export interface ServiceProcesses {
  /** The process `npm start` is (npm itself). */
  npm: ProcessEntry;
  /** Processes between npm and the supervisor, if any (a shell or a bootstrap that stays). */
  launchers: ProcessEntry[];
  /** The parent of the API and the worker. */
  supervisor: ProcessEntry;
  /** The supervisor's other descendants (e.g. esbuild's service process). */
  helpers: ProcessEntry[];
  /** The first API process, and all of them (API_PROCESSES). */
  api: ProcessEntry;
  apis: ProcessEntry[];
  worker: ProcessEntry;
}

const isApi = (argv: string[]) => argv.some((word) => /(^|\/)src\/api\/server\.[cm]?[jt]s$/.test(word));
const isWorker = (argv: string[]) => argv.some((word) => /(^|\/)worker\/index\.[cm]?[jt]s$/.test(word));

/**
 * Finds the service's processes below `rootPid` in a process table: the API and the worker by the
 * entry point they run (the deepest such process, should a runner start another one), the
 * supervisor as their common parent. Throws, listing the tree, when the shape is not that.
 */
export function serviceProcesses(table: ProcessEntry[], rootPid: number): ServiceProcesses {
  const byPid = new Map(table.map((entry) => [entry.pid, entry]));
  const childrenOf = (pid: number) => table.filter((entry) => entry.ppid === pid);
  const descendants = (pid: number): ProcessEntry[] => childrenOf(pid).flatMap((child) => [child, ...descendants(child.pid)]);
  const root = byPid.get(rootPid);
  const tree = descendants(rootPid);
  const describeTree = () =>
    [root, ...tree].map((entry) => entry && `${entry.pid} (parent ${entry.ppid}): ${entry.argv.join(" ")}`).join("; ");
  const deepest = (matches: (argv: string[]) => boolean, most = 1) => {
    const found = tree.filter((entry) => matches(entry.argv) && !descendants(entry.pid).some((below) => matches(below.argv)));
    if (found.length < 1 || found.length > most)
      throw new Error(`bench: found ${found.length} such processes under npm start: ${describeTree()}`);
    return found;
  };
  if (!root) throw new Error(`bench: npm start (pid ${rootPid}) is not running`);
  const apis = deepest(isApi, Infinity);
  const [worker] = deepest(isWorker) as [ProcessEntry];
  if (apis.some((api) => api.ppid !== worker.ppid))
    throw new Error(`bench: the API and the worker have different parents: ${describeTree()}`);
  const api = apis[0]!;
  const supervisor = byPid.get(api.ppid)!;
  const launchers: ProcessEntry[] = [];
  for (let pid = supervisor.ppid; pid !== rootPid; pid = byPid.get(pid)!.ppid) launchers.unshift(byPid.get(pid)!);
  const ownedByService = new Set(
    [...apis, worker].flatMap((entry) => [entry, ...descendants(entry.pid)]).map((entry) => entry.pid),
  );
  const helpers = descendants(supervisor.pid).filter((entry) => !ownedByService.has(entry.pid));
  return { npm: root, launchers, supervisor, helpers, api, apis, worker };
}

/** A port nothing listens on now (the supervisor checks it again before the API takes it). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface Service {
  url: string;
  processes: ServiceProcesses;
  /** Stops the group as Ctrl-C would (it is stopped with the bench otherwise). */
  stop(): Promise<void>;
}

/**
 * Runs `npm start` with `env` in a process group of its own and resolves once the API answers
 * /health, the supervisor has said all it says at start (its output has been quiet for 2 s), and
 * its processes are found. A group that stops before the bench does fails the bench.
 */
export async function startService(env: NodeJS.ProcessEnv, port?: number): Promise<Service> {
  const apiPort = port ?? (await freePort());
  const npm = spawn("npm", ["start", "--silent"], {
    // Its public address is where the bench reaches it: the console's sign-in comes from that origin.
    env: { ...env, PORT: String(apiPort), PUBLIC_URL: `http://127.0.0.1:${apiPort}` },
    // Its own process group, so that the bench can stop the supervisor's children too, whatever happens to it.
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const group = npm.pid!;
  const killGroup = () => {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // the group has ended
    }
  };
  const exited = once(npm, "exit");
  let stopped = false;
  const stoppable = {
    // npm passes SIGTERM on to the supervisor, which stops the API and the worker as an operator's Ctrl-C would.
    stop: async () => {
      stopped = true;
      if (npm.exitCode === null && npm.signalCode === null) {
        npm.kill("SIGTERM");
        await Promise.race([exited, sleep(20_000)]);
      }
      killGroup();
    },
    kill: killGroup,
  };
  const release = track(stoppable);

  const lastLines: string[] = [];
  let lastOutputAt = Date.now();
  let partial = "";
  npm.stdout.on("data", (chunk: Buffer) => {
    lastOutputAt = Date.now();
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      // The processes' own logs (JSON lines at LOG_LEVEL) go through; the supervisor's words and the demo keys do not.
      if (line.startsWith("{")) console.log(line);
      else if (line.trim()) lastLines.push(line);
      if (lastLines.length > 20) lastLines.shift();
    }
  });
  const said = () => (lastLines.length ? `; it said:\n  ${lastLines.join("\n  ")}` : "");
  npm.once("exit", (code, signal) => {
    release();
    killGroup();
    if (!isStopping() && !stopped) void fail(`bench: npm start stopped unexpectedly (${signal ?? `exit code ${code}`})${said()}`);
  });

  const url = `http://127.0.0.1:${apiPort}`;
  const deadline = Date.now() + 120_000;
  const healthy = () =>
    fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (answer) => answer.ok,
      () => false,
    );
  while (!(await healthy())) {
    if (Date.now() > deadline) throw new Error(`bench: npm start's API did not answer /health within 120 s${said()}`);
    await sleep(100);
  }
  while (Date.now() - lastOutputAt < 2_000) {
    if (Date.now() > deadline) throw new Error(`bench: npm start kept talking for 120 s${said()}`);
    await sleep(100);
  }
  return { url, processes: serviceProcesses(await listProcesses(), group), stop: stoppable.stop };
}
