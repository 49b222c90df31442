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
const ext = compiled ? "js" : "ts";

export interface Entrypoint {
  name: "API" | "worker";
  /** Arguments to the node binary. */
  args: string[];
}

/** How to run the API and the worker: compiled, through tsx, or through tsx in watch mode. */
export function entrypoints({ watch }: { watch: boolean }): Entrypoint[] {
  const files = { API: join(tree, "src", `server.${ext}`), worker: join(tree, "worker", `index.${ext}`) };
  const run = (file: string) => {
    if (compiled) return [file];
    if (!watch) return ["--import", "tsx", file];
    const tsx = createRequire(join(projectRoot, "package.json")).resolve("tsx/cli");
    return [tsx, "watch", "--clear-screen=false", file];
  };
  return (["API", "worker"] as const).map((name) => ({ name, args: run(files[name]) }));
}
