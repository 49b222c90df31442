// @ts-check
/**
 * `npm run admin`, `db:deploy`, `db:reset` and `db:status`: runs one of the programs from the bundles of the sources
 * as they are (bundle-cache.js: made first when the sources changed since the last start), in this
 * process, with the arguments after its name. A command starts on a third of the CPU that loading
 * each source file through tsx takes. Source maps are on, so that a stack trace names the
 * TypeScript sources.
 *
 *   node scripts/run-bundled.js src/cli/admin.ts merchant create --name "Corner Cafe"
 */
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cachedBundle, START_ENTRY_POINTS } from "./bundle-cache.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [entry, ...args] = process.argv.slice(2);
if (!entry || !START_ENTRY_POINTS.includes(entry)) {
  console.error(`usage: node scripts/run-bundled.js <one of ${START_ENTRY_POINTS.join(", ")}> [arguments]`);
  process.exit(2);
}

const since = performance.now();
const { folder, built } = await cachedBundle(root);
// On stderr: stdout may be a command's JSON.
if (built)
  console.error(
    `payreq: bundled the programs for the sources as they are (${((performance.now() - since) / 1000).toFixed(1)} s)`,
  );
const program = join(folder, entry.replace(/\.ts$/, ".js"));
process.setSourceMapsEnabled(true);
// The program reads its arguments where it would if node had been given it.
process.argv = [process.argv[0] ?? process.execPath, program, ...args];
await import(pathToFileURL(program).href);
