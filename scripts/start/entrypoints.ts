import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the project and its processes are. The supervisor (supervisor.ts) runs as JavaScript: from
 * `npm start`'s bundles (scripts/start.js, scripts/bundle-cache.js) or from the build
 * (`npm run start:prod`, `dist/`); the other start-up scripts may run through tsx.
 */
const here = fileURLToPath(import.meta.url);

/** The folder holding package.json: prisma/ (schema, migrations) is read from there. */
export const projectRoot = (() => {
  for (let dir = dirname(here); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
  }
  throw new Error(`no package.json above ${here}`);
})();

/** The tree the supervisor runs from, where its processes' files are: a bundle folder or `dist/`. */
function tree(): string {
  if (!here.endsWith(".js"))
    throw new Error("the supervisor runs from JavaScript: start it with scripts/start.js (npm start) or from dist/");
  return join(dirname(here), "..", "..");
}

export interface Entrypoint {
  name: "API" | "worker";
  /** Arguments to the node binary. */
  args: string[];
}

interface How {
  /** Stack traces name the TypeScript sources (`npm start`'s bundles have linked source maps). */
  sourceMaps: boolean;
}

const nodeFlags = ({ sourceMaps }: How) => (sourceMaps ? ["--enable-source-maps"] : []);

/**
 * V8's optimising compiler for WebAssembly is held back: a function must run 100 million units
 * before it is recompiled (the default is 1.8 million on Node 20, 13 million on Node 24). The only WebAssembly here is
 * Prisma's query compiler, which runs once per query shape (Prisma caches plans) and on none of the
 * hot paths, which are our own statements. Its optimising compilation would leave tens of MiB of
 * malloc arena resident in each long-lived process, and cost a short-lived one the CPU of the
 * compilation itself, so `npm start`'s steps get the flag too, and the tests' processes
 * (vitest.config.ts); the figures are in docs/architecture.md, "Memory". What the code does is the same.
 */
export const WASM_TIERING_FLAGS = ["--wasm-tiering-budget=100000000"];

/**
 * V8's heap sizing for the API (measured with the bench; docs/architecture.md, "Memory"). Under
 * load the API's resident memory was mostly heap V8 had not needed to collect yet:
 * - the young generation's two semi-spaces stay as large as they have grown, 16 MiB each on
 *   Node 20 and 32 MiB on Node 24, idle or not; 8 MiB costs a few more scavenges;
 * - between full collections V8 lets the old generation grow to 4 times what was live after the
 *   last one when the heap's cap is the default (4 GiB here), and 1.6 times with a 1 GiB cap
 *   (`--trace-gc-verbose` prints the factor). The live heap is about 40 MiB, so the cap also
 *   leaves room for 25 times that.
 */
export const API_NODE_FLAGS = ["--max-semi-space-size=8", "--max-old-space-size=1024", ...WASM_TIERING_FLAGS];

/** The worker's: its heap is small and it keeps the default sizing. */
export const WORKER_NODE_FLAGS = WASM_TIERING_FLAGS;

const processFlags = (name: "API" | "worker") => (name === "API" ? API_NODE_FLAGS : WORKER_NODE_FLAGS);

const file = (name: "API" | "worker", root: string, ext: string) =>
  join(root, ...(name === "API" ? ["src", "api", `server.${ext}`] : ["worker", `index.${ext}`]));

/**
 * The node arguments that run the API or the worker from `root`, a tree of JavaScript (a run
 * folder, `dist/`), as the supervisor runs them; the bench runs them so too.
 */
export const processArgs = (name: "API" | "worker", root: string, how: How) => [
  ...nodeFlags(how),
  ...processFlags(name),
  file(name, root, "js"),
];

/**
 * How to run the API and the worker: from the tree the supervisor runs from, or, in watch mode,
 * from the TypeScript sources through tsx, which restarts each when its code changes.
 */
export function entrypoints(how: How & { watch: boolean }): Entrypoint[] {
  const run = (name: "API" | "worker") => {
    if (!how.watch) return processArgs(name, tree(), how);
    const tsx = createRequire(join(projectRoot, "package.json")).resolve("tsx/cli");
    // The API serves the console's bundle, which `npm run dev` makes again when the console changes.
    const bundle = name === "API" ? [`--include=${join(projectRoot, "src", "generated", "console")}/*`] : [];
    return [tsx, "watch", "--clear-screen=false", ...bundle, ...processFlags(name), file(name, projectRoot, "ts")];
  };
  return (["API", "worker"] as const).map((name) => ({ name, args: run(name) }));
}

/** How to run one of the supervisor's short-lived steps (scripts/start/preflight.ts, demo-merchant.ts). */
export const step = (name: "preflight" | "demo-merchant", how: How) => [
  ...nodeFlags(how),
  // Spares the short-lived step V8's optimising compilation of Prisma's query compiler.
  ...WASM_TIERING_FLAGS,
  join(tree(), "scripts", "start", `${name}.js`),
];
