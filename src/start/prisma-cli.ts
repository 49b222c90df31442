import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";
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
 * The two Prisma CLIs the project runs offline (docs/architecture.md, "Prisma"):
 * - `generate`: Prisma 7's, with the client. Generating never runs a schema engine, but the CLI
 *   insists that one exists and would download it; any executable satisfies it, so it is pointed
 *   at node itself.
 * - `migrate`: Prisma 6.19's (the `prisma6` package), the last whose WebAssembly schema engine
 *   migrates without a native binary, with its own configuration (prisma/migrate/).
 */
const CLIS = {
  generate: { main: "node_modules/prisma/build/index.js", args: [], env: { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath } },
  migrate: {
    main: "node_modules/prisma6/build/index.js",
    args: ["--config", "prisma/migrate/prisma.config.ts"],
    env: {},
  },
} as const;

/**
 * Runs a Prisma CLI command offline, showing its output only when it fails (without the warning it
 * prints about the schema's `url`, which the driver adapter replaces).
 */
export async function runPrismaCli(
  root: string,
  cli: keyof typeof CLIS,
  args: string[],
  options: PrismaCliOptions = {},
): Promise<void> {
  const { main, args: cliArgs, env } = CLIS[cli];
  const child = spawn(process.execPath, [join(root, main), ...args, ...cliArgs], {
    cwd: root,
    env: {
      ...process.env,
      // The generators (plugin-prisma's prisma-pothos-types) are found on the PATH, as under npm.
      PATH: [join(root, "node_modules", ".bin"), process.env.PATH].join(delimiter),
      CHECKPOINT_DISABLE: "1",
      ...env,
      ...options.env,
    },
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
