import { spawn, type ChildProcess } from "node:child_process";
import { until } from "../../src/poll.js";

export interface Daemon {
  readonly name: string;
  readonly child: ChildProcess;
  /** What it wrote to standard output and error, for a failure's message. */
  readonly output: () => string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs an engine's server (redis-server, redis-sentinel, pgbouncer, postgres) in the foreground as
 * a child of the test process, and resolves once `ready` says it serves; if it exits first or never
 * serves, it rejects with what the server printed. Whoever starts one stops it in their teardown.
 */
export async function startDaemon(
  name: string,
  command: string,
  args: string[],
  ready: () => Promise<boolean>,
  { timeoutMs = 20_000, env }: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Daemon> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: env ?? process.env });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  child.once("error", (err) => keep(Buffer.from(`\n${err.message}`)));

  const daemon: Daemon = {
    name,
    child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (gone) return;
      child.kill(signal);
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
  const served = await until(
    async () => !gone && (await ready().catch(() => false)),
    (ok) => ok || gone,
    timeoutMs,
    `${name} to serve`,
    100,
  ).catch(() => false);
  if (!served || gone) {
    await daemon.stop("SIGKILL");
    throw new Error(`${name} did not start (${command} ${args.join(" ")}):\n${output}`);
  }
  return daemon;
}
