/**
 * The supervisor of `npm start` (`--demo`), `npm run dev` (`--demo --watch`), `npm run
 * start:prod` and the image (`--api`): runs the preflight (configuration, Redis, ports, database,
 * migrations), then API_PROCESSES API processes on one port and the worker as one group that
 * SIGTERM or SIGINT stops together (process-group.ts), serves the API processes' metrics on
 * METRICS_PORT, and with --demo makes the demo merchant. With --api it runs the API processes
 * alone, after a preflight of their configuration and ports: the image's containers run the
 * migration and the worker as services of their own. It outlives all of them, so it stays small:
 * the preflight and the demo merchant are short-lived processes of their own, and this module
 * imports Node and scripts/start's small supervision modules only (no schema, driver or client;
 * the test of `npm start` checks what it carries), and prom-client when it serves metrics.
 */
import { get } from "node:http";
import { parseArgs } from "node:util";
import type { DemoCredentials } from "./demo-merchant.js";
import { entrypoints, step } from "./entrypoints.js";
import type { Preflight } from "./preflight.js";
import { runProcessGroup, runStep } from "./process-group.js";
import { serveClusterMetrics } from "./cluster-metrics.js";
import { localBaseUrl, reachableHost } from "../../src/listen-address.js";
import { until } from "../../src/poll.js";

const say = (line: string) => console.log(`payreq: ${line}`);

/**
 * Runs the group until it stops, then sets the exit code. Its processes run from the tree this
 * module is in: `npm start`'s bundles (scripts/start.js), which have source maps for stack traces
 * to name the TypeScript sources, or the build (`dist/`).
 */
export async function runSupervisor({ sourceMaps = false } = {}): Promise<void> {
  const { values: flags } = parseArgs({
    options: {
      demo: { type: "boolean", default: false },
      watch: { type: "boolean", default: false },
      api: { type: "boolean", default: false },
    },
  });

  const checked = await runStep<{ preflight?: Preflight }>([
    ...step("preflight", { sourceMaps }),
    ...(flags.api ? ["--api"] : []),
  ]);
  const settings = checked.message?.preflight;
  if (!settings) {
    // The preflight said why (one sentence), or a bug showed its stack.
    process.exitCode = checked.code || 1;
    return;
  }

  // Watch mode runs one API process: tsx restarts it when its code changes.
  const apiProcesses = flags.watch ? undefined : settings.apiProcesses;
  const apis = (apiProcesses ?? 1) === 1 ? "the API" : `${apiProcesses} API processes`;
  say(`starting ${flags.api ? apis : `${apis} and the worker`}${flags.watch ? " in watch mode" : ""}`);
  const processes = entrypoints({ watch: flags.watch, sourceMaps }).filter(({ name }) => !flags.api || name === "API");
  const group = runProcessGroup(processes, { stopTimeoutMs: settings.stopTimeoutMs, say, apiProcesses });
  // A watched API serves its own metrics port; the API processes of a cluster leave it to this one.
  const metrics =
    apiProcesses !== undefined && settings.metricsPort !== null
      ? serveClusterMetrics(settings.host, settings.metricsPort, () => group.answering())
      : undefined;
  metrics?.catch((err: Error) => group.stop(`cannot serve the metrics: ${err.message}`, 1));
  void group.stopped.then(() =>
    metrics?.then(
      (server) => server.close(),
      () => {},
    ),
  );
  const demo =
    flags.demo && !flags.api
      ? runStep<{ demo?: DemoCredentials; problem?: string }>(step("demo-merchant", { sourceMaps }), group.stopped)
      : undefined;

  // tsx's watch mode does not pass the API's message on, so there the supervisor asks /health.
  const listening = flags.watch ? untilHealthy(reachableHost(settings.host), settings.port, group.stopped) : group.listening;
  const port = await listening.catch(() => undefined); // the group says which process stopped
  if (port !== undefined) {
    const base = localBaseUrl(settings.host, port);
    say(`ready in ${(performance.now() / 1000).toFixed(1)} s: GraphQL at ${base}/graphql`);
    // For a parent that runs the group as the supervisor runs the API (the tests do).
    process.send?.({ listening: port });
    if (demo) {
      const { ended, message } = await demo;
      if (message?.demo) console.log(describeDemo(message.demo, base, settings.publicUrl ?? `http://localhost:${port}`));
      else say(`could not create the demo merchant: ${message?.problem ?? `it stopped (${ended})`}`);
    }
  }
  process.exitCode = await group.stopped;
  for (const problem of group.problems) console.error(`payreq: ${problem}`);
}

const describeDemo = (demo: DemoCredentials, base: string, publicUrl: string) => `
Demo merchant (development only; each start issues new keys and revokes those printed before)
  merchantId      ${demo.merchantId}
  merchant key    ${demo.merchantKey}
  payer key       ${demo.payerKey}
  sandbox wallet  ${demo.walletId}  (NZD 1000.00; pay at ${demo.walletLedger} with it as the authorization)
  GraphiQL        ${base}/graphql  (set the X-Api-Key header)
  pay page        ${publicUrl}/pay/${demo.request.requestCode}  (NZD 3.00, short code ${demo.request.shortCode}; pay it with the wallet above)
  console         ${demo.consoleLink}  (signs in once, within 15 minutes)
`;

/** Resolves with `port` once the API answers /health at `host`; rejects if `gaveUp` settles first or after 60 s. */
async function untilHealthy(host: string, port: number, gaveUp: Promise<unknown>): Promise<number> {
  let over = false;
  void gaveUp.finally(() => (over = true));
  // node:http rather than fetch: fetch would load undici into this process for good.
  const healthy = () =>
    new Promise<boolean>((resolve) =>
      get({ host, port, path: "/health", timeout: 2_000 }, (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200);
      })
        .once("error", () => resolve(false))
        .once("timeout", function (this: { destroy(): void }) {
          this.destroy();
        }),
    );
  const answered = await until(
    async () => !over && (await healthy()),
    (ok) => ok || over,
    60_000,
    `the API to answer /health on port ${port}`,
    200,
  );
  if (!answered) throw new Error(`the API stopped before it answered /health on port ${port}`);
  return port;
}
