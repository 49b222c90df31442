// @ts-check
/**
 * `npm start` (`--demo`) and `npm run dev` (`--demo --watch`). Generates the Prisma client when the
 * schema or its generators changed (scripts/start/generate.ts), the console's browser code when it
 * changed (scripts/start/console-bundle.js), bundles the programs unless a start
 * of the same sources already did (bundle-cache.js), then hands over to the supervisor of the
 * bundles (scripts/start/supervisor.ts). Plain JavaScript, so that this process, which supervises
 * the API and the worker for as long as they run, carries no TypeScript loader, and keeps no esbuild
 * service but in `npm run dev`, where it bundles the console on each change (tsc checks this file
 * too: tsconfig.json's checkJs).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cachedBundle } from "./bundle-cache.js";
import { ensureConsoleBundle, watchConsole } from "./start/console-bundle.js";
import { clientIsCurrent } from "./start/client-stamp.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Generates the Prisma client when it is stale (the bundles are made of it); false if it could not. */
async function generatedClient() {
  if (await clientIsCurrent(root)) return true;
  // Through tsx, as `npm run setup` does it: a start pays for the loader only when the schema changed.
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "start", "generate.ts")], {
    cwd: root,
    stdio: "inherit",
  });
  const [code] = await once(child, "exit");
  return code === 0;
}

if (await generatedClient()) {
  if (await ensureConsoleBundle(root)) console.log("payreq: bundled the merchant console's browser code");
  const since = performance.now();
  const { folder, built } = await cachedBundle(root);
  if (built) {
    const seconds = ((performance.now() - since) / 1000).toFixed(1);
    console.log(`payreq: bundled the API, the worker and the start-up steps (${seconds} s)`);
  }
  /** @type {typeof import("../scripts/start/supervisor.js")} */
  const { runSupervisor } = await import(pathToFileURL(join(folder, "scripts", "start", "supervisor.js")).href);
  // `npm run dev` bundles the console again on each change; the watched API restarts with the new bundle.
  const stopWatching = process.argv.includes("--watch")
    ? await watchConsole(root, (message) => console.log(`payreq: ${message}`))
    : undefined;
  await runSupervisor({ sourceMaps: true });
  await stopWatching?.();
} else {
  process.exitCode = 1;
}
