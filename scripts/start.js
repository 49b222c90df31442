// @ts-check
/**
 * `npm start` (`--demo`) and `npm run dev` (`--demo --watch`). Transpiles the TypeScript sources
 * into a run folder of their own (transpile.js), generates the Prisma client when the schema or
 * its generators changed, stops esbuild, then hands over to the supervisor transpiled there
 * (scripts/start/supervisor.ts), which removes the folder when the group stops. Plain JavaScript, so that
 * this process, which supervises the API and the worker for as long as they run, carries no
 * TypeScript loader and no esbuild service (tsc checks this file too: tsconfig.json's checkJs).
 */
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stopTranspiling, transpile, transpileSources } from "./transpile.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = await transpileSources(root);
/** A module of the run folder. */
const load = (/** @type {string} */ path) => import(pathToFileURL(join(run, path)).href);

/** @type {typeof import("../scripts/start/generated-client.js")} */
const { ensureGeneratedClient } = await load("scripts/start/generated-client.js");
/** @type {typeof import("../scripts/start/problem.js")} */
const { StartupProblem } = await load("scripts/start/problem.js");

/** Generates the Prisma client when it is stale, into the sources and the run folder; false if it could not. */
async function generateClient() {
  const since = performance.now();
  try {
    if (!(await ensureGeneratedClient(root))) return true;
    await transpile(root, run, ["src/generated/**/*.ts"]);
    console.log(`payreq: generated the Prisma client (${((performance.now() - since) / 1000).toFixed(1)} s)`);
    return true;
  } catch (err) {
    if (!(err instanceof StartupProblem)) throw err;
    console.error(`payreq: ${err.message}`);
    return false;
  } finally {
    await stopTranspiling();
  }
}

if (await generateClient()) {
  /** @type {typeof import("../scripts/start/supervisor.js")} */
  const { runSupervisor } = await load("scripts/start/supervisor.js");
  await runSupervisor(run);
} else {
  await rm(run, { recursive: true, force: true });
  process.exitCode = 1;
}
