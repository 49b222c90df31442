import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** The folders that hold what `npm start` runs; one per start, so several can share a checkout. */
const runs = (root: string) => join(root, ".data", "run");
const DAY_MS = 24 * 3_600_000;

/**
 * Transpiles the TypeScript sources to JavaScript for `npm start` (esbuild, a quarter of a second),
 * so the API and the worker load as plain modules: through tsx's loader each takes a second or two
 * longer to start. Type checking stays with `tsc` (`npm test`, `npm run build`). Returns the folder,
 * which holds `src/` and `worker/` as the project does.
 */
export async function transpileSources(root: string): Promise<string> {
  const { build } = await import("esbuild");
  await removeStaleRuns(root);
  const outdir = join(runs(root), `${Date.now()}-${process.pid}`);
  await mkdir(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: ["src/**/*.ts", "worker/**/*.ts", "prisma/create-database.ts"],
    outdir,
    outbase: ".",
    format: "esm",
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    sourcemap: "linked",
    logLevel: "silent",
  });
  return outdir;
}

/** Folders left by starts that ended without removing theirs (killed, or the machine stopped). */
async function removeStaleRuns(root: string): Promise<void> {
  const entries = await readdir(runs(root)).catch(() => []);
  for (const entry of entries) {
    const path = join(runs(root), entry);
    if (Date.now() - (await stat(path)).mtimeMs > DAY_MS) await rm(path, { recursive: true, force: true });
  }
}
