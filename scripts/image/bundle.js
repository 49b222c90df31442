// @ts-check
/**
 * The image's programs, bundled: each entry point with the code it imports, its packages included,
 * so that the image ships what the processes load rather than every production package whole
 * (Prisma's client carries a query compiler for five databases, the packages their types, sources
 * and CommonJS and ES builds side by side). The Dockerfile's build stage runs it after `npm run
 * build` (which generates the Prisma client and type-checks); the runtime stage takes its output as
 * `dist/`, where compose.yaml and the README run them, with the packages scripts/image/modules.js keeps.
 *
 *   node scripts/image/bundle.js [outdir]   # default .data/image
 */
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EXTERNAL } from "./modules.js";

/**
 * esbuild, required when a bundle is made: loading it checks its binary's version (a quarter of a
 * second), which a start that finds its bundles made (scripts/bundle-cache.js) does without.
 *
 * @returns {typeof import("esbuild")}
 */
const loadEsbuild = () => createRequire(import.meta.url)("esbuild");

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** What the image runs (Dockerfile, compose.yaml, the README's Production section). */
export const ENTRY_POINTS = [
  "src/api/server.ts",
  "worker/index.ts",
  "worker/health-check.ts",
  "scripts/start/migrate.ts",
  "src/cli/admin.ts",
  // `node dist/scripts/start/main.js` (npm run start:prod) and the step it runs first.
  "scripts/start/main.ts",
  "scripts/start/preflight.ts",
];

/**
 * Bundles `entryPoints` (ENTRY_POINTS unless given) into `outdir`, at their paths
 * (`outdir/src/api/server.js`). Code two of them share, and what one imports only when needed (the
 * tracing SDK, GraphiQL's page, Prisma's query compiler), are chunks of their own, loaded when
 * imported. The chunks sit two folders deep, as the start scripts do: scripts/start/entrypoints.ts
 * finds the tree it runs from two folders above itself.
 *
 * @param {string} outdir
 * @param {string[]} entryPoints
 * @param {{ sourcemap?: "linked" }} options source maps beside the bundles (`npm start`'s: scripts/bundle-cache.js)
 */
export async function bundle(outdir, entryPoints = ENTRY_POINTS, { sourcemap } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  const esbuild = loadEsbuild();
  try {
    return await esbuild.build({
      absWorkingDir: root,
      entryPoints,
      outdir,
      outbase: ".",
      bundle: true,
      splitting: true,
      chunkNames: "chunks/shared/[name]-[hash]",
      format: "esm",
      platform: "node",
      target: "node20",
      // Their subpaths too (`prisma6/config`); pino-pretty is a development package the logger
      // requires only when it is installed.
      external: [...EXTERNAL, "pino-pretty"],
      // CommonJS packages in an ES module call `require` for Node's modules.
      banner: {
        js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
      },
      logLevel: "warning",
      metafile: true,
      sourcemap,
      sourcesContent: false,
    });
  } finally {
    // esbuild's service process would otherwise stay for as long as the process that called this.
    await esbuild.stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = resolve(process.argv[2] ?? join(root, ".data", "image"));
  await bundle(outdir);
  console.log(`bundled ${ENTRY_POINTS.length} entry points into ${outdir}`);
}
