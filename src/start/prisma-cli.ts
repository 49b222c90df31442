import { spawn } from "node:child_process";
import { join } from "node:path";
import { StartupProblem } from "./problem.js";

/**
 * Runs a Prisma CLI command offline, showing its output only when it fails (without the warning it
 * prints about the schema's `url`, which the driver adapter replaces).
 */
export async function runPrismaCli(root: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const child = spawn(process.execPath, [join(root, "node_modules/prisma/build/index.js"), ...args], {
    cwd: root,
    env: { ...process.env, CHECKPOINT_DISABLE: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code === 0) return;
  process.stderr.write(withoutAdapterWarning(output));
  throw new StartupProblem(`prisma ${args.join(" ")} failed (exit code ${code}); its output is above.`);
}

const withoutAdapterWarning = (output: string) =>
  output.replace(/WARNING: Your schema specifies the following datasource properties[\s\S]*?driver adapters\.\n/, "");
