/** What one bench run measures and for how long, from its command-line arguments. */

export interface BenchOptions {
  quick: boolean;
  /**
   * `--only=webhooks` runs the webhook section alone (for work on the worker), `--only=tracing` the tracing section,
   * `--only=isolation` the tenant-isolation section, `--only=topology` the topology section, `--only=money` the
   * money path (pay and refund, for work on their statements), `--only=fairness` webhook delivery's sharing between
   * merchants, `--only=console` the merchant console's (merchantStats, the first load in Chromium), `--only=graphql-cost`
   * the price of each piece of the GraphQL endpoint.
   */
  only?: "webhooks" | "tracing" | "isolation" | "topology" | "money" | "fairness" | "console" | "graphql-cost";
  /** Seconds of each measured run, and of the unmeasured warm-up before it. */
  duration: number;
  warmup: number;
  /** --quick measures the 16-connection figures the README compares (one connection is latency, not load). */
  connections: number[];
  /** Requests of the merchant in the database at each step of the scale section. */
  scale: [number, number];
  /** Expired idempotency keys, and as many old activity rows, that the retention section's sweep deletes. */
  retentionRows: number;
  /** Notifications per webhook burst: large enough that its first and last milliseconds do not set its rate. */
  deliveries: number;
  /** The whole run, start to finish: past it the bench stops everything and fails. */
  deadlineMs: number;
}

/** The arguments `npm run bench --` takes. */
export const USAGE =
  "expected --quick and/or one of --only=webhooks, --only=tracing, --only=isolation, --only=topology, --only=money, --only=fairness, --only=console, --only=graphql-cost";

/** Reads the arguments; throws on any it does not know. */
export function parseOptions(args: string[]): BenchOptions {
  const sections = ["webhooks", "tracing", "isolation", "topology", "money", "fairness", "console", "graphql-cost"] as const;
  const only = sections.filter((section) => args.includes(`--only=${section}`));
  const unknown = args.filter((arg) => arg !== "--quick" && !sections.some((section) => arg === `--only=${section}`));
  if (unknown.length || only.length > 1)
    throw new Error(`bench: ${unknown.length ? `unknown argument ${unknown.join(" ")}` : "one --only at a time"} (${USAGE})`);
  const quick = args.includes("--quick");
  return {
    quick,
    ...(only[0] ? { only: only[0] } : {}),
    duration: quick ? 3 : 10,
    warmup: quick ? 1 : 3,
    connections: quick ? [16] : [1, 16, 64],
    scale: quick ? [10_000, 100_000] : [10_000, 1_000_000],
    deliveries: quick ? 6000 : 20000,
    retentionRows: quick ? 100_000 : 500_000,
    deadlineMs: (quick ? 10 : 30) * 60_000,
  };
}

/**
 * The fastest pay or refund rate a pool of pre-created requests or purchases is sized for. A run
 * that goes faster runs out, and the bench stops saying so (it never pays a request twice).
 */
export const POOL_RATE_PER_SECOND = 5000;

/** How many distinct requests (or purchases) one measured row needs: its warm-up and its run at the pool rate. */
export const poolSize = (options: Pick<BenchOptions, "duration" | "warmup">) =>
  (options.warmup + options.duration) * POOL_RATE_PER_SECOND;
