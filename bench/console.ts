/**
 * The merchant console: `merchantStats` over 30 days by the day, for a merchant with 100,000 paid
 * requests spread over those days (rolled up, as the worker keeps them) (p50 and p95 at four calls at once, each answer checked against
 * the seeded counts), and the console's first load in Chromium on loopback (bytes of script and
 * stylesheet, and the time from opening a sign-in link until the overview's figures show).
 */
import { brotliCompressSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { Bench } from "./calls.js";
import { admin } from "./processes.js";
import { seedRequests } from "./seed.js";

const REQUESTS = 100_000;
const DAY_MS = 86_400_000;

export interface ConsoleFigures {
  statsP50Ms: number;
  statsP95Ms: number;
  statsCalls: number;
  /** The bundle's script and stylesheet, brotli-compressed, in bytes (the first load's budget is 150 KB). */
  bundleBrotliBytes: number;
  /** What the browser took over the wire for the first load's scripts and stylesheets. */
  firstLoadBytes: number;
  /** From opening the sign-in link (and confirming it) to the overview's figures. */
  firstLoadMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** 100,000 paid requests of a merchant of its own, created over the last 28 days (inside the 30 the stats ask for) and paid up to 10 minutes later. */
async function seedMerchant(bench: Bench, env: NodeJS.ProcessEnv) {
  const merchant = await admin(env, "merchant", "create", "--name", "Console Bench");
  const merchantId = merchant.merchantId!;
  await seedRequests(bench.sql, merchantId, REQUESTS, { paid: true });
  await bench.sql.query(
    `UPDATE payment_request SET created_at = (now() AT TIME ZONE 'UTC') - random() * interval '28 days' WHERE merchant_id = $1`,
    [merchantId],
  );
  await bench.sql.query(
    `UPDATE "transaction" t SET created_at = r.created_at + random() * interval '10 minutes'
       FROM payment_request r WHERE r.id = t.request_id AND t.merchant_id = $1`,
    [merchantId],
  );
  // Written with past times, as an import is: the merchant's takings are summed again, as after one.
  await admin(env, "stats", "rebuild", "--merchant", merchantId);
  await bench.sql.query(`VACUUM (ANALYZE) payment_request, "transaction", takings_bin`);
  return merchant;
}

/** merchantStats calls, `connections` at once for `seconds`; every answer must count all the seeded requests. */
async function measureStats(api: string, apiKey: string, connections: number, seconds: number) {
  const to = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS);
  const from = new Date(to.getTime() - 30 * DAY_MS);
  const body = JSON.stringify({
    query: `query ($from: DateTime!, $to: DateTime!) { merchantStats(from: $from, to: $to, bucket: DAY, timeZone: "Pacific/Auckland") {
      buckets { start created paid } totals { asset created paid paidAmount } medianSecondsToPay } }`,
    variables: { from: from.toISOString(), to: to.toISOString() },
  });
  const durations: number[] = [];
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const answer = await fetch(`${api}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body,
      });
      const { data, errors } = (await answer.json()) as {
        data?: { merchantStats: { totals: { created: number; paid: number }[] } };
        errors?: unknown;
      };
      const total = data?.merchantStats.totals.find((row) => row.created > 0);
      if (!answer.ok || errors || total?.created !== REQUESTS || total.paid !== REQUESTS)
        throw new Error(`console: merchantStats answered wrongly (${answer.status}): ${JSON.stringify(errors ?? total)}`);
      durations.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return durations.sort((a, b) => a - b);
}

/** The console's first load in Chromium: a sign-in link opened and confirmed, until the overview's figures show. */
async function measureFirstLoad(api: string, env: NodeJS.ProcessEnv, merchantId: string) {
  const { url } = await admin({ ...env, PUBLIC_URL: api }, "console", "link", "--merchant", merchantId);
  const browser = await chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    let bytes = 0;
    page.on("requestfinished", (request) => {
      if (["script", "stylesheet"].includes(request.resourceType()))
        void request.sizes().then((sizes) => (bytes += sizes.responseBodySize + sizes.responseHeadersSize));
    });
    const started = performance.now();
    await page.goto(url!);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator(".figures dd").first().waitFor({ timeout: 30_000 });
    const elapsed = performance.now() - started;
    return { firstLoadMs: Math.round(elapsed), firstLoadBytes: bytes };
  } finally {
    await browser.close();
  }
}

export async function measureConsole(bench: Bench, env: NodeJS.ProcessEnv, seconds: number): Promise<ConsoleFigures> {
  const merchant = await seedMerchant(bench, env);
  // Unmeasured first, as every throughput run is: the first calls read the freshly written rows and
  // bins into PostgreSQL's cache, and in the quick run's few seconds they alone made the p95.
  await measureStats(bench.api, merchant.apiKey!, 4, bench.timing.warmup);
  const durations = await measureStats(bench.api, merchant.apiKey!, 4, seconds);
  const folder = join(import.meta.dirname, "..", "src", "generated", "console");
  const bundleBrotliBytes = ["console.js", "console.css"]
    .map((file) => brotliCompressSync(readFileSync(join(folder, file))).length)
    .reduce((sum, size) => sum + size, 0);
  const figures: ConsoleFigures = {
    statsP50Ms: Math.round(quantile(durations, 0.5)),
    statsP95Ms: Math.round(quantile(durations, 0.95)),
    statsCalls: durations.length,
    bundleBrotliBytes,
    ...(await measureFirstLoad(bench.api, env, merchant.merchantId!)),
  };
  console.log(
    `  merchantStats, 30 days by the day over ${REQUESTS.toLocaleString("en")} paid requests, 4 at once: ` +
      `p50 ${figures.statsP50Ms} ms, p95 ${figures.statsP95Ms} ms (${figures.statsCalls} calls)`,
  );
  console.log(
    `  first load: ${Math.round(figures.bundleBrotliBytes / 1024)} KB of script and stylesheet (brotli), ` +
      `${Math.round(figures.firstLoadBytes / 1024)} KB over the wire; the overview's figures ${figures.firstLoadMs} ms after the link opened`,
  );
  return figures;
}
