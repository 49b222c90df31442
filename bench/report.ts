/**
 * The bench's figures: one row per measured run, printed as it is measured; ratios within the run;
 * the targets, reported and never asserted; and everything in bench/results/<time>.json.
 * The arithmetic is pure (test/bench/report.test.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import type { Result } from "autocannon";
import type { Measured } from "./load.js";

export interface Row {
  /** A stable name for the figure, e.g. `rest.pay`; with `connections`, unique in a run. */
  key: string;
  section: string;
  operation: string;
  connections: number;
  /** Calls (or cycles, for a sequence) per second. */
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  errors: number;
  /** CPU of the serving process per HTTP call, in µs, and which process that is. */
  cpuMicrosPerCall?: number;
  cpuOf?: string;
  /** CPU of PostgreSQL per HTTP call over the same run, in µs. */
  dbCpuMicrosPerCall?: number;
}

export const rows: Row[] = [];

/** Records and prints one measured run; `perCycle` calls make one cycle of a sequence. */
export function record(
  key: string,
  section: string,
  operation: string,
  connections: number,
  {
    result,
    cpuMicrosPerCall,
    dbCpuMicrosPerCall,
  }: Measured | { result: Result; cpuMicrosPerCall?: null; dbCpuMicrosPerCall?: null },
  { perCycle = 1, cpuOf }: { perCycle?: number; cpuOf?: string } = {},
): Row {
  const row: Row = {
    key,
    section,
    operation,
    connections,
    rps: Math.round(result.requests.average / perCycle),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    ...(cpuMicrosPerCall != null ? { cpuMicrosPerCall, cpuOf } : {}),
    ...(dbCpuMicrosPerCall != null ? { dbCpuMicrosPerCall } : {}),
  };
  rows.push(row);
  const cpu = row.cpuMicrosPerCall === undefined ? "" : `  ${row.cpuOf} CPU ${row.cpuMicrosPerCall} µs/call`;
  console.log(
    `  ${section.padEnd(9)} ${operation.padEnd(34)} c=${String(connections).padEnd(3)} ${String(row.rps).padStart(6)} req/s  ` +
      `p50 ${row.p50} ms  p97.5 ${row.p97_5} ms  p99 ${row.p99} ms  errors ${row.errors}${cpu}`,
  );
  return row;
}

/** The row of a figure at a connection count, if it was measured. */
export const rowOf = (key: string, connections = 16, from: Row[] = rows) =>
  from.find((row) => row.key === key && row.connections === connections);

/** a / b to two decimals; null when either is missing or b is 0. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || b === 0) return null;
  return Math.round((a / b) * 100) / 100;
}

/** Pairs compared within the run: [numerator, denominator] figure keys. */
export const RATIOS: [string, string][] = [
  ["rest.create", "baseline.create"],
  ["rest.info", "baseline.info"],
  ["rest.pay", "baseline.pay"],
  ["rest.refund", "baseline.refund"],
  ["graphql.create", "rest.create"],
  ["graphql.info", "rest.info"],
  ["graphql.pay", "rest.pay"],
  ["graphql.create-pay", "rest.create-pay"],
];

export interface Ratio {
  of: string;
  to: string;
  connections: number;
  ratio: number;
}

/** Every ratio of RATIOS that the run measured both sides of, per connection count. */
export function ratios(from: Row[] = rows): Ratio[] {
  const counts = [...new Set(from.map((row) => row.connections))].sort((a, b) => a - b);
  return RATIOS.flatMap(([of, to]) =>
    counts.flatMap((connections) => {
      const value = ratio(rowOf(of, connections, from)?.rps, rowOf(to, connections, from)?.rps);
      return value === null ? [] : [{ of, to, connections, ratio: value }];
    }),
  );
}

export function printRatios(list: Ratio[]): void {
  if (!list.length) return;
  console.log("\nRatios (req/s, this run)");
  for (const { of, to, connections, ratio } of list)
    console.log(`  ${`${of} / ${to}`.padEnd(40)} c=${String(connections).padEnd(3)} ${ratio.toFixed(2)}`);
}

/** The serving process's CPU per call for the figures named, at 16 connections. */
export function printCpuPerCall(keys: string[], from: Row[] = rows): void {
  console.log("\nCPU per call at 16 connections (utime + stime from /proc over the measured run, ÷ calls answered)");
  for (const row of keys.map((key) => rowOf(key, 16, from)))
    if (row?.cpuMicrosPerCall !== undefined)
      console.log(
        `  ${`${row.section} ${row.operation}`.padEnd(30)} ${row.cpuOf} ${row.cpuMicrosPerCall} µs` +
          (row.dbCpuMicrosPerCall === undefined ? "" : `, PostgreSQL ${row.dbCpuMicrosPerCall} µs`),
      );
}

/** How a value is held against its goal. */
export type Direction = "at least" | "at most" | "below";

export interface Target {
  name: string;
  /** Null when this run did not measure it. */
  value: number | null;
  goal: number;
  direction: Direction;
}

export type Verdict = "met" | "missed" | "not measured";

export function verdict({ value, goal, direction }: Target): Verdict {
  if (value === null || Number.isNaN(value)) return "not measured";
  const met = direction === "at least" ? value >= goal : direction === "at most" ? value <= goal : value < goal;
  return met ? "met" : "missed";
}

/** Prints each target with its verdict; returns them for the results file. */
export function printTargets(targets: Target[]): (Target & { verdict: Verdict; met: boolean })[] {
  console.log("\nTargets (at 16 connections; reported, not asserted)");
  return targets.map((target) => {
    const outcome = verdict(target);
    const label = { met: "met    ", missed: "MISSED ", "not measured": "n/a    " }[outcome];
    console.log(`  ${label} ${target.name}: ${target.value ?? "not measured in this run"}`);
    return { ...target, verdict: outcome, met: outcome === "met" };
  });
}

/** Writes the run's figures to bench/results/<time>[-quick].json; returns the file's path. */
export async function writeResults(quick: boolean, results: Record<string, unknown>): Promise<string> {
  await mkdir("bench/results", { recursive: true });
  const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`;
  await writeFile(file, JSON.stringify({ quick, ...results }, null, 2));
  return file;
}

/** The value at percentile `p` of values sorted ascending (nearest rank, from below). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
