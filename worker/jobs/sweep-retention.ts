import { sweepExpiredData, type RetentionSettings, type SweepCounts } from "../../src/domain/retention/sweeps.js";
import type { Logger } from "../../src/logger.js";
import type { WorkerMetrics } from "../metrics.js";

/** Deletes what is past its retention (src/domain/retention/sweeps.ts), counts it and says so. */
export async function runRetentionSweep(
  settings: RetentionSettings,
  metrics: WorkerMetrics,
  logger: Logger,
  now = new Date(),
): Promise<SweepCounts> {
  const started = performance.now();
  const deleted = await sweepExpiredData(now, settings);
  for (const [table, rows] of Object.entries(deleted)) metrics.retentionDeleted.inc({ table }, rows);
  logger.info({ deleted, ms: Math.round(performance.now() - started) }, "retention sweep done");
  return deleted;
}
