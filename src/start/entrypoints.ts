import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the project and its processes are, whether this runs from TypeScript sources (`npm start`,
 * through tsx) or from the build (`npm run start:prod`, `dist/`).
 */
const here = fileURLToPath(import.meta.url);
const compiled = here.endsWith(".js");

/** The folder holding package.json: prisma/ (schema, migrations) is read from there. */
export const projectRoot = (() => {
  for (let dir = dirname(here); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
  }
  throw new Error(`no package.json above ${here}`);
})();

/** The tree the entry points are in: `src/..` for sources, `dist/` for the build. */
const tree = join(dirname(here), "..", "..");

export interface Entrypoint {
  name: "API" | "worker";
  /** Arguments to the node binary. */
  args: string[];
}

/**
 * How to run the API and the worker: from the build (`dist/`), through tsx in watch mode, or from
 * the sources transpiled into `transpiled` (see transpile.ts).
 */
export function entrypoints(how: { watch: true } | { watch: false; transpiled?: string }): Entrypoint[] {
  const file = (name: "API" | "worker", root: string, ext: string) =>
    join(root, ...(name === "API" ? ["src", `server.${ext}`] : ["worker", `index.${ext}`]));
  const run = (name: "API" | "worker") => {
    if (compiled) return [file(name, tree, "js")];
    if (how.watch) {
      const tsx = createRequire(join(projectRoot, "package.json")).resolve("tsx/cli");
      return [tsx, "watch", "--clear-screen=false", file(name, tree, "ts")];
    }
    if (!how.transpiled) throw new Error("the sources must be transpiled first (transpile.ts)");
    return ["--enable-source-maps", file(name, how.transpiled, "js")];
  };
  return (["API", "worker"] as const).map((name) => ({ name, args: run(name) }));
}
