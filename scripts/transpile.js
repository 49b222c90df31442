// @ts-check
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";

// Required, not imported: esbuild is a CommonJS package, and importing it through the ES module
// loader keeps the process several MiB larger for as long as it runs.
/** @type {typeof import("esbuild")} */
const { build, stop } = createRequire(import.meta.url)("esbuild");

/** The folders that hold what `npm start` runs; one per start, so several can share a checkout. */
const runs = (/** @type {string} */ root) => join(root, ".data", "run");
const DAY_MS = 24 * 3_600_000;

/** What a start runs: the sources of every process, and what they import from prisma/; the pay page's files as they are. */
const SOURCES = ["src/**/*.ts", "worker/**/*.ts", "scripts/start/**/*.ts", "scripts/node-process.ts", "src/http/pay/static/*"];

/**
 * Transpiles the TypeScript sources to JavaScript in a new folder of `.data/run/` (esbuild, a
 * quarter of a second), so that every process of `npm start` (the supervisor too) loads plain
 * modules: through tsx's loader each takes a second or two longer to start, and carries the loader
 * for as long as it runs. Type checking stays with `tsc` (`npm test`, `npm run build`). Returns
 * the folder, which holds `src/` and `worker/` as the project does.
 *
 * @param {string} root the project's folder
 * @returns {Promise<string>}
 */
export async function transpileSources(root) {
  await removeStaleRuns(root);
  const outdir = join(runs(root), `${Date.now()}-${process.pid}`);
  await mkdir(outdir, { recursive: true });
  await transpile(root, outdir, SOURCES);
  return outdir;
}

/**
 * Transpiles `entryPoints` (globs relative to `root`) into `outdir`, keeping their paths; again
 * into the same folder when files changed after the first pass (the Prisma client, generated).
 *
 * @param {string} root
 * @param {string} outdir
 * @param {string[]} entryPoints
 */
export async function transpile(root, outdir, entryPoints) {
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    outbase: ".",
    format: "esm",
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    sourcemap: "linked",
    logLevel: "silent",
    loader: { ".css": "copy", ".js": "copy" },
  });
}

/**
 * Ends esbuild's service process. It would otherwise stay for as long as the process that used it
 * (50 MiB on its own), and a long-running process has nothing more for it to do.
 */
export const stopTranspiling = () => stop();

/**
 * Folders left by starts that ended without removing theirs (killed, or the machine stopped).
 *
 * @param {string} root
 */
export async function removeStaleRuns(root) {
  const entries = await readdir(runs(root)).catch(() => []);
  for (const entry of entries) {
    const path = join(runs(root), entry);
    // A start that ends removes its own folder, maybe between the listing and this look: gone is not stale.
    const modified = await stat(path).then(
      (found) => found.mtimeMs,
      () => null,
    );
    if (modified !== null && Date.now() - modified > DAY_MS) await rm(path, { recursive: true, force: true });
  }
}
