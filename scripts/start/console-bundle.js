// @ts-check
/**
 * The merchant console's browser code (src/http/console/app/, Preact), bundled by esbuild into
 * src/generated/console/: `console.js` and `console.css`, minified, which the API serves by the hash
 * of their content (src/http/console/routes.ts). Made by `npm run setup` and `npm start` when the
 * app's sources, the lockfile or this file changed since the last bundle (a stamp beside it), so a
 * start whose console did not change pays nothing for it. Plain JavaScript, so that scripts/start.js
 * can ask before anything else runs.
 *
 *   node scripts/start/console-bundle.js   # bundles unless current
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const APP = join("src", "http", "console", "app");
const OUT = join("src", "generated", "console");

/** @param {string} root */
const stampFile = (root) => join(root, OUT, ".stamp");

/**
 * The app's files in a stable order, read synchronously (a few dozen small files).
 *
 * @param {string} folder
 * @returns {string[]}
 */
const filesUnder = (folder) =>
  readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]));

/** @param {string} root */
function sourcesStamp(root) {
  const hash = createHash("sha256");
  for (const file of [...filesUnder(join(root, APP)), join(root, "package-lock.json"), fileURLToPath(import.meta.url)])
    hash.update(file.slice(root.length)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

/**
 * Bundles the console unless its bundle is current.
 *
 * @param {string} root the project's folder
 * @returns {Promise<boolean>} whether it bundled
 */
export async function ensureConsoleBundle(root) {
  const stamp = sourcesStamp(root);
  if ((await readFile(stampFile(root), "utf8").catch(() => "")) === stamp) return false;
  await bundleConsole(root);
  await writeFile(stampFile(root), stamp);
  return true;
}

/**
 * esbuild's options for the console's bundle, in the project's folder `root`.
 *
 * @param {string} root
 * @returns {import("esbuild").BuildOptions}
 */
const bundleOptions = (root) => ({
  absWorkingDir: root,
  entryPoints: { console: join(APP, "main.tsx") },
  outdir: OUT,
  bundle: true,
  minify: true,
  format: "esm",
  // The browsers of the last few years: Chromium, Firefox and Safari since 2021.
  target: ["chrome100", "firefox100", "safari15"],
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  logLevel: "warning",
});

/** Loaded only to bundle: loading esbuild checks its binary, which a current bundle does without. */
/** @returns {typeof import("esbuild")} */
const loadEsbuild = () => createRequire(import.meta.url)("esbuild");

/** @param {string} root */
async function bundleConsole(root) {
  await mkdir(join(root, OUT), { recursive: true });
  const esbuild = loadEsbuild();
  try {
    await esbuild.build(bundleOptions(root));
  } finally {
    await esbuild.stop();
  }
}

/**
 * Bundles the console again whenever one of its files changes (`npm run dev`); the API, watching
 * the bundle, restarts with it. Answers how to stop watching.
 *
 * @param {string} root the project's folder
 * @param {(message: string) => void} say
 * @returns {Promise<() => Promise<void>>}
 */
export async function watchConsole(root, say) {
  await mkdir(join(root, OUT), { recursive: true });
  const esbuild = loadEsbuild();
  /** @type {import("esbuild").Plugin} */
  const announce = {
    name: "announce",
    setup(build) {
      let first = true;
      build.onEnd((result) => {
        if (!first && result.errors.length === 0) say("bundled the console again");
        first = false;
      });
    },
  };
  const context = await esbuild.context({ ...bundleOptions(root), plugins: [announce] });
  await context.watch();
  return async () => {
    await context.dispose();
    await esbuild.stop();
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  console.log((await ensureConsoleBundle(root)) ? `bundled the console into ${OUT}` : "the console's bundle is current");
}
