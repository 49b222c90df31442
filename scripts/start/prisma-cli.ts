import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";
import { StartupProblem } from "./problem.js";

export interface PrismaCliOptions {
  env?: NodeJS.ProcessEnv;
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
  generate: {
    main: "node_modules/prisma/build/index.js",
    preload: [],
    args: [],
    env: { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath },
  },
  migrate: {
    main: "node_modules/prisma6/build/index.js",
    // Without it, every deploy and reset waits out a 10 s timer the engine leaves behind.
    preload: ["scripts/start/engine-lock-timer.cjs"],
    args: ["--config", "prisma/migrate/prisma.config.ts"],
    env: {},
  },
} as const;

/**
 * Runs a Prisma CLI command offline, showing its output only when it fails (without Prisma's
 * misleading notes: see `withoutMisleadingNotes`); throws a StartupProblem then.
 */
export async function runPrismaCli(
  root: string,
  cli: keyof typeof CLIS,
  args: string[],
  options: PrismaCliOptions = {},
): Promise<void> {
  const { code, output } = await prismaCli(root, cli, args, options);
  if (code === 0) return;
  process.stderr.write(withoutMisleadingNotes(output));
  throw new StartupProblem(`prisma ${args.join(" ")} failed (exit code ${code}); its output is above.`);
}

/** A Prisma CLI command's exit code and its output, without Prisma's misleading notes: for commands whose output is the answer. */
export async function prismaCliOutput(root: string, cli: keyof typeof CLIS, args: string[], options: PrismaCliOptions = {}) {
  const { code, output } = await prismaCli(root, cli, args, options);
  return { code, output: withoutMisleadingNotes(output) };
}

async function prismaCli(root: string, cli: keyof typeof CLIS, args: string[], options: PrismaCliOptions) {
  const { main, preload, args: cliArgs, env } = CLIS[cli];
  const requires = preload.flatMap((file) => ["--require", join(root, file)]);
  const child = spawn(process.execPath, [...requires, join(root, main), ...args, ...cliArgs], {
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
  const collect = (chunk: Buffer) => (output += chunk);
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, output };
}

/**
 * What Prisma 6.19's CLI says that is not so here: that the schema's `url` will not be used (the
 * migration schema must name one, or the CLI downloads an engine; the driver adapter is given the
 * URL instead: prisma/migrate/), and that it skips loading environment variables (it skips its own
 * `.env` loading; the configuration reads `.env` as every entry point does, src/env-file.ts).
 */
export const withoutMisleadingNotes = (output: string) =>
  output
    .replace(/\n?WARNING: Your schema specifies the following datasource properties[\s\S]*?driver adapters\.\n/, "")
    .replace(/Prisma config detected, skipping environment variable loading\.\n/, "");
