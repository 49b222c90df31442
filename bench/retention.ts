/**
 * Retention: how long the worker's sweep takes over a million rows that are due (expired
 * idempotency keys and, with ACTIVITY_RETENTION set, old activity), and requests.info's p99 while
 * it runs against the same p99 just before, in the same run.
 */
import { closeDatabase, openDatabase } from "../src/db.js";
import { sweepExpiredData, type SweepCounts } from "../src/domain/retention/sweeps.js";
import { createLogger } from "../src/logger.js";
import { infoOfAny, type Bench } from "./calls.js";
import { load, run } from "./load.js";
import type { BenchOptions } from "./options.js";
import { record } from "./report.js";

const DAY_MS = 86_400_000;

export interface RetentionFigures {
  rowsDue: number;
  deleted: SweepCounts;
  sweepMs: number;
  /** requests.info p99 (ms) just before the sweep, and the worst of the windows it ran through. */
  p99Quiet: number;
  p99DuringSweep: number;
}

/** Rows that are due: `count` expired idempotency keys and as many activity rows older than the retention. */
async function seedDueRows(bench: Bench, count: number): Promise<void> {
  await bench.sql.query(
    `INSERT INTO idempotency_key (api_key_prefix, key, fingerprint, created_at, expires_at)
     SELECT 'bench-retention', g::text, 'f', now() - interval '3 days', now() - interval '2 days' FROM generate_series(1, $1::int) g`,
    [count],
  );
  await bench.sql.query(
    `INSERT INTO activity (id, action, actor, outcome, created_at)
     SELECT gen_random_uuid(), 'key.created', 'bench', 'x', now() - interval '400 days' FROM generate_series(1, $1::int) g`,
    [count],
  );
  await bench.sql.query("ANALYZE idempotency_key; ANALYZE activity");
}

export async function measureRetention(bench: Bench, options: BenchOptions, databaseUrl: string): Promise<RetentionFigures> {
  const { api, headers, merchantId, sql, timing, pids } = bench;
  const count = options.retentionRows;
  await seedDueRows(bench, count);
  const ids = (await sql.query("SELECT id FROM payment_request WHERE merchant_id = $1 LIMIT 1000", [merchantId])).rows.map(
    (r: { id: string }) => r.id,
  );
  const info = infoOfAny(api, headers, ids);
  const quiet = record("retention.info.quiet", "retention", "info, no sweep", 16, await load(info, timing, pids.api), {
    cpuOf: "API",
  }).p99;

  // The sweep as the worker runs it (its statements, its batch size), from this process.
  openDatabase({ url: databaseUrl, poolSize: 2 }, createLogger({ level: "silent" }));
  const started = performance.now();
  let sweepMs: number | undefined;
  const sweep = sweepExpiredData(new Date(), {
    webhookRetentionMs: 90 * DAY_MS,
    activityRetentionMs: 365 * DAY_MS,
    batchSize: 1000,
  }).then((deleted) => ((sweepMs = Math.round(performance.now() - started)), deleted));
  // Windows of load until the sweep is over (the bench's own deadline bounds the whole run).
  let worst = 0;
  for (let window = 1; sweepMs === undefined; window++) {
    const result = await run(info, Math.max(1, Math.round(timing.duration / 3)));
    worst = Math.max(
      worst,
      record(`retention.info.sweeping.${window}`, "retention", `info, sweeping (window ${window})`, 16, { result }).p99,
    );
  }
  const deleted = await sweep;
  await closeDatabase();
  console.log(
    `  retention sweep: ${(deleted.idempotency_key + deleted.activity).toLocaleString("en")} rows in ${sweepMs} ms ` +
      `(${deleted.idempotency_key.toLocaleString("en")} idempotency keys, ${deleted.activity.toLocaleString("en")} activity rows); ` +
      `info p99 ${quiet} ms before, ${worst} ms at worst while it ran (${(worst / Math.max(quiet, 1)).toFixed(2)}×)`,
  );
  return { rowsDue: 2 * count, deleted, sweepMs, p99Quiet: quiet, p99DuringSweep: worst };
}
