/**
 * `npm run setup`'s last step (before tests, builds and code generation), and `npm start`'s first
 * when the client is stale (scripts/start.js): the Prisma client, when stale, and the console's
 * browser bundle, when stale (console-bundle.js). Exits 1 with one sentence when the client cannot
 * be generated.
 */
import { projectRoot } from "./entrypoints.js";
import { ensureConsoleBundle } from "./console-bundle.js";
import { ensureGeneratedClient } from "./generated-client.js";
import { StartupProblem } from "./problem.js";

const since = performance.now();
try {
  if (await ensureGeneratedClient(projectRoot))
    console.log(`payreq: generated the Prisma client (${((performance.now() - since) / 1000).toFixed(1)} s)`);
  if (await ensureConsoleBundle(projectRoot)) console.log("payreq: bundled the merchant console's browser code");
} catch (err) {
  if (!(err instanceof StartupProblem)) throw err;
  console.error(`payreq: ${err.message}`);
  process.exitCode = 1;
}
