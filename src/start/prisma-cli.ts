import { spawn } from "node:child_process";
import { join } from "node:path";
import { StartupProblem } from "./problem.js";

export interface PrismaCliOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * The line Prisma prints once the command's work is done. When it appears the command is
   * stopped instead of awaited: after `migrate deploy`, the WebAssembly engine leaves a 10-second
   * timer behind that keeps the process alive with nothing left to do.
   */
  doneWhen?: RegExp;
}

/**
 * Runs a Prisma CLI command offline, showing its output only when it fails (without the warning it
 * prints about the schema's `url`, which the driver adapter replaces).
 */
export async function runPrismaCli(root: string, args: string[], options: PrismaCliOptions = {}): Promise<void> {
  const child = spawn(process.execPath, [join(root, "node_modules/prisma/build/index.js"), ...args], {
    cwd: root,
    env: { ...process.env, CHECKPOINT_DISABLE: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let done = false;
  const collect = (chunk: Buffer) => {
    output += chunk;
    if (!done && options.doneWhen?.test(output)) {
      done = true;
      child.kill();
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code === 0 || done) return;
  process.stderr.write(withoutAdapterWarning(output));
  throw new StartupProblem(`prisma ${args.join(" ")} failed (exit code ${code}); its output is above.`);
}

const withoutAdapterWarning = (output: string) =>
  output.replace(/WARNING: Your schema specifies the following datasource properties[\s\S]*?driver adapters\.\n/, "");
