/**
 * `npm start` (`--demo`), `npm run dev` (`--demo --watch`) and `npm run start:prod` (from `dist/`):
 * prepares configuration and database, checks Redis and the ports, then runs the API and the worker
 * as one group that SIGTERM or SIGINT stops together.
 */
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import { checkPortFree, checkRedis, untilHealthy } from "./dependencies.js";
import { entrypoints, projectRoot } from "./entrypoints.js";
import { prepareDatabase, readConfiguration, type Say } from "./prepare.js";
import { StartupProblem } from "./problem.js";
import { supervise } from "./supervisor.js";
import { transpileSources } from "./transpile.js";

const started = performance.now();
const { values: flags } = parseArgs({
  options: { demo: { type: "boolean", default: false }, watch: { type: "boolean", default: false } },
});
const say: Say = (line) => console.log(`payreq: ${line}`);
const fromSources = import.meta.url.endsWith(".ts");

const settings = await (async () => {
  try {
    const configuration = await readConfiguration(say, { fromSources });
    const { api } = configuration;
    await checkRedis(api.REDIS_URL);
    await checkPortFree(api.PORT, "PORT");
    await checkPortFree(api.METRICS_PORT, "METRICS_PORT");
    await prepareDatabase(api.DATABASE_URL, say);
    return configuration;
  } catch (err) {
    if (!(err instanceof StartupProblem)) throw err;
    console.error(`payreq: ${err.message}`);
    process.exit(1);
  }
})();

say(`starting the API and the worker${flags.watch ? " in watch mode" : ""}`);
// Watch mode runs tsx, which reloads on change; a plain start runs the sources transpiled.
const transpiled = fromSources && !flags.watch ? await transpileSources(projectRoot) : undefined;
const group = supervise(entrypoints(flags.watch ? { watch: true } : { watch: false, transpiled }), {
  // The worker waits SHUTDOWN_TIMEOUT for deliveries in flight, then closes its connections.
  stopTimeoutMs: settings.worker.SHUTDOWN_TIMEOUT + 10_000,
  say,
});
const demo = flags.demo
  ? import("./demo-merchant.js").then(({ seedDemoMerchant }) => seedDemoMerchant(settings.api.DATABASE_URL))
  : undefined;
demo?.catch(() => {}); // reported below, once the API is up

// tsx's watch mode does not pass the API's message on, so there the supervisor asks /health.
const listening = flags.watch ? untilHealthy(settings.api.PORT, group.stopped) : group.listening;
const port = await listening.catch(() => undefined); // the group says which process stopped
if (port !== undefined) {
  say(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s: GraphQL at http://localhost:${port}/graphql`);
  if (demo) {
    const { describeDemo } = await import("./demo-merchant.js");
    await demo.then(
      (credentials) => console.log(describeDemo(credentials, port)),
      (err: Error) => say(`could not create the demo merchant: ${err.message}`),
    );
  }
}
process.exitCode = await group.stopped;
for (const problem of group.problems) console.error(`payreq: ${problem}`);
if (transpiled) await rm(transpiled, { recursive: true, force: true });
