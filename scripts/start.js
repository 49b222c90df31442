// @ts-check
/**
 * `npm start` (`--demo`) and `npm run dev` (`--demo --watch`). Bundles the programs unless a start
 * of the same sources already did (bundle-cache.js), generates the Prisma client when the schema or
 * its generators changed (and bundles again with it), then hands over to the supervisor of the
 * bundles (scripts/start/supervisor.ts). Plain JavaScript, so that this process, which supervises
 * the API and the worker for as long as they run, carries no TypeScript loader and no esbuild
 * service (tsc checks this file too: tsconfig.json's checkJs).
 */
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cachedBundle } from "./bundle-cache.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** A module of a bundle folder. */
const load = (/** @type {string} */ folder, /** @type {string} */ path) => import(pathToFileURL(join(folder, path)).href);
const seconds = (/** @type {number} */ since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The bundles of the sources as they are, saying so when it made them. */
async function bundled() {
  const since = performance.now();
  const { folder, built } = await cachedBundle(root);
  if (built) console.log(`payreq: bundled the API, the worker and the start-up steps (${seconds(since)})`);
  return folder;
}

/** The bundles to run, with the Prisma client generated when it is stale; undefined if it could not be. */
async function prepared() {
  const first = await bundled();
  /** @type {typeof import("../scripts/start/generated-client.js")} */
  const { ensureGeneratedClient } = await load(first, "scripts/start/generated-client.js");
  const since = performance.now();
  try {
    if (!(await ensureGeneratedClient(root))) return first;
    console.log(`payreq: generated the Prisma client (${seconds(since)})`);
    return await bundled();
  } catch (err) {
    // A StartupProblem (scripts/start/problem.ts) says in one sentence what to fix.
    if (!(err instanceof Error && err.name === "StartupProblem")) throw err;
    console.error(`payreq: ${err.message}`);
    return undefined;
  }
}

const folder = await prepared();
if (folder) {
  /** @type {typeof import("../scripts/start/supervisor.js")} */
  const { runSupervisor } = await load(folder, "scripts/start/supervisor.js");
  await runSupervisor({ sourceMaps: true });
} else {
  process.exitCode = 1;
}
