// @ts-check
/**
 * The programs of `npm start` and `npm run dev`, bundled (scripts/image/bundle.js) into a folder of
 * `.data/bundles/` named by the hash of what they are made of: the sources, the generated client, the
 * lockfile and the bundler's settings. A start whose sources did not change since the last one runs
 * what that one bundled: its processes start on half the CPU that one module per source file takes.
 * With linked source maps, so that stack traces name the TypeScript sources.
 *
 *   node scripts/bundle-cache.js   # bundles unless bundled, prints the folder (npm test does so once for its runs)
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, ENTRY_POINTS } from "./image/bundle.js";

/**
 * What `npm start` runs besides the image's programs (its supervisor and the demo merchant's step),
 * and what `npm run db:reset` and `db:status` run (scripts/run-bundled.js).
 */
export const START_ENTRY_POINTS = [
  ...ENTRY_POINTS,
  "scripts/start/supervisor.ts",
  "scripts/start/demo-merchant.ts",
  "scripts/start/reset.ts",
  "scripts/start/status.ts",
];

/** Folders and files whose content a bundle is made of (what the programs import, which they are, and how they are bundled). */
const INPUTS = [
  "scripts/bundle-cache.js",
  "src",
  "worker",
  "scripts/start",
  "scripts/image",
  "scripts/node-process.ts",
  "package-lock.json",
  "tsconfig.json",
];

const DAY_MS = 24 * 3_600_000;
const bundles = (/** @type {string} */ root) => join(root, ".data", "bundles");

/**
 * The folder holding the bundles of the sources as they are now: made unless an earlier start made
 * it. Starts that bundle the same sources at once each write a folder of their own and keep the
 * first to be renamed into place.
 *
 * @param {string} root the project's folder
 * @returns {Promise<{ folder: string, built: boolean }>} the folder, and whether this call made it
 */
export async function cachedBundle(root) {
  const folder = bundleFolder(root);
  if (await exists(folder)) {
    // Marks it used, for removeStaleBundles.
    const now = new Date();
    await utimes(folder, now, now).catch(() => {});
    return { folder, built: false };
  }
  await removeStaleBundles(root);
  const building = `${folder}.${process.pid}.partial`;
  await mkdir(bundles(root), { recursive: true });
  await bundle(building, START_ENTRY_POINTS, { sourcemap: "linked" });
  try {
    await rename(building, folder);
  } catch (error) {
    // Another start put the same bundle there first.
    if (!(await exists(folder))) throw error;
    await rm(building, { recursive: true, force: true });
  }
  return { folder, built: true };
}

/**
 * Bundles no start has used for a day, and partial ones a start left when it was killed.
 *
 * @param {string} root
 */
export async function removeStaleBundles(root) {
  const entries = await readdir(bundles(root)).catch(() => []);
  for (const entry of entries) {
    const path = join(bundles(root), entry);
    // Another start may remove one between the listing and this look: gone is not stale.
    const modified = await stat(path).then(
      (found) => found.mtimeMs,
      () => null,
    );
    if (modified !== null && Date.now() - modified > DAY_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The folder of the bundles of the sources as they are now, made or not: named by their content,
 * wherever they are.
 *
 * @param {string} root
 */
export const bundleFolder = (root) => join(bundles(root), sourcesHash(root));

/**
 * Read synchronously: a start waits for nothing else meanwhile, and two hundred small files are
 * read in a fraction of the time promises take.
 *
 * @param {string} root
 */
function sourcesHash(root) {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    const path = join(root, input);
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
          .sort()
      : [path];
    for (const file of files) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 20);
}

const exists = (/** @type {string} */ path) =>
  stat(path).then(
    () => true,
    () => false,
  );

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await cachedBundle(join(dirname(fileURLToPath(import.meta.url)), ".."))).folder);
}
