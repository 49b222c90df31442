import { spawn, type ChildProcess, type StdioNull, type StdioPipe } from "node:child_process";

/** Where a process's standard streams go; it always has an IPC channel too. */
export interface NodeProcessOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: StdioNull | StdioPipe;
  stdout?: "inherit" | StdioNull | StdioPipe;
  stderr?: "inherit" | StdioNull | StdioPipe;
}

/**
 * Starts `node` with `args` (this node, its flags given in `args`) and an IPC channel: the API,
 * the worker, the bench's servers and the supervisor's steps tell their parent what they need to
 * over it (`process.send`), such as the port they listen on (reportedPort).
 */
export function spawnNode(
  args: string[],
  { env = process.env, stdin = "ignore", stdout = "inherit", stderr = "inherit" }: NodeProcessOptions = {},
): ChildProcess {
  return spawn(process.execPath, args, { env, stdio: [stdin, stdout, stderr, "ipc"] });
}

/**
 * The port a process says it listens on (`process.send({ listening: port })`, as src/api/server.ts
 * and the bench's baseline server do). Rejects, naming `what`, when the process ends first or has
 * not said within `timeoutMs`.
 */
export function reportedPort(child: ChildProcess, what: string, timeoutMs = 30_000): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    const onMessage = (message: { listening?: unknown }) => {
      if (typeof message?.listening !== "number") return;
      settle();
      resolve(message.listening);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      settle();
      reject(new Error(`${what} stopped (${signal ?? `exit code ${code}`}) before it listened`));
    };
    const timer = setTimeout(() => {
      settle();
      reject(new Error(`${what} did not start listening within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}
