/** The targets the bench holds a run's figures against (reported, never asserted), all at 16 connections. */
import { fairnessGoal, type FairnessPhase } from "./fairness.js";
import type { Isolation } from "./isolation.js";
import { supervisorMiB, type ProcessMemory } from "./memory.js";
import type { ConsoleFigures } from "./console.js";
import { ratio, rowOf, type Row, type Target } from "./report.js";

export interface Figures {
  rows: Row[];
  memory: ProcessMemory[];
  webhooks: { p99: number; deliveriesPerSecond: number };
  isolation: Isolation[];
  fairness: FairnessPhase[];
  /** requests.info p99 at each scale step, and the steps. */
  scale: Record<number, number>;
  scaleSteps: [number, number];
}

const atLeast = (name: string, value: number | null, goal: number): Target => ({ name, value, goal, direction: "at least" });
const atMost = (name: string, value: number | null, goal: number): Target => ({ name, value, goal, direction: "at most" });
const below = (name: string, value: number | null, goal: number): Target => ({ name, value, goal, direction: "below" });

/** Another tenant's p95 under each flood of the isolation section, at most twice its idle p95. */
export const isolationTargets = (isolation: Isolation[]): Target[] =>
  isolation.map(({ flood, ratio }) => atMost(`another tenant's p95 under a ${flood} flood ≤ 2 × idle`, ratio, 2));

/**
 * Another merchant's notification p95 under each webhook flood of the fairness section (the first
 * phase is idle) at most twice its idle p95 and a second, and its pings attempted during a ping flood.
 */
export function fairnessTargets([idle, ...floods]: FairnessPhase[]): Target[] {
  if (!idle) return [];
  return floods.flatMap(({ phase, p95, pings }) => [
    atMost(`another merchant's notification p95 during ${phase} ≤ 2 × idle + 1 s`, p95, fairnessGoal(idle.p95)),
    ...(pings
      ? [atLeast("another merchant's pings attempted during the ping flood (share)", pings.attempted / pings.sent, 1)]
      : []),
  ]);
}

export function targets({ rows, memory, webhooks, isolation, fairness, scale, scaleSteps: [small, large] }: Figures): Target[] {
  const rps = (key: string) => rowOf(key, 16, rows)?.rps ?? null;
  const p99 = (key: string) => rowOf(key, 16, rows)?.p99 ?? null;
  const vs = (of: string, to: string) => ratio(rps(of), rps(to));
  const mib = (role: string, figure: "idleMiB" | "peakMiB") => memory.find((process) => process.role === role)?.[figure] ?? null;
  const count = (n: number) => n.toLocaleString("en");
  return [
    atLeast("REST requests.pay ≥ 600/s", rps("rest.pay"), 600),
    atMost("REST requests.pay p99 ≤ 50 ms", p99("rest.pay"), 50),
    atLeast("REST pay ≥ 0.6 × baseline pay", vs("rest.pay", "baseline.pay"), 0.6),
    atLeast("REST info ≥ 0.9 × baseline info", vs("rest.info", "baseline.info"), 0.9),
    below("REST info p99 < 20 ms", p99("rest.info"), 20),
    atLeast("REST create ≥ 0.5 × baseline create", vs("rest.create", "baseline.create"), 0.5),
    atLeast("GraphQL paymentRequest ≥ 0.85 × REST info", vs("graphql.info", "rest.info"), 0.85),
    atLeast("GraphQL requestCreate ≥ 0.85 × REST create", vs("graphql.create", "rest.create"), 0.85),
    atLeast("GraphQL create→pay ≥ 0.8 × REST create→pay", vs("graphql.create-pay", "rest.create-pay"), 0.8),
    atMost("API CPU per REST pay ≤ 1500 µs", rowOf("rest.pay", 16, rows)?.cpuMicrosPerCall ?? null, 1500),
    atMost("API idle RSS ≤ 120 MiB", mib("API", "idleMiB"), 120),
    atMost("API peak RSS ≤ 250 MiB", mib("API", "peakMiB"), 250),
    atMost("supervisor (with its helpers) peak RSS ≤ 60 MiB", supervisorMiB(memory, "peakMiB"), 60),
    atLeast("≥ 2000 notifications per second", webhooks.deliveriesPerSecond, 2000),
    below("pay → notification p99 < 50 ms when idle", webhooks.p99, 50),
    ...isolationTargets(isolation),
    ...fairnessTargets(fairness),
    atMost(
      `info p99 at ${count(large)} rows ≤ 1.5 × at ${count(small)}`,
      scale[large] === undefined ? null : ratio(scale[large], Math.max(scale[small] ?? 0, 1)),
      1.5,
    ),
  ];
}

/** The merchant console's: merchantStats over 100,000 requests, and its first load's size. */
export function consoleTargets(figures: ConsoleFigures): Target[] {
  return [
    atMost("console: merchantStats p95 (ms), 30 days over 100,000 requests at c=4", figures.statsP95Ms, 100),
    atMost("console: first load's script and stylesheet (KB, brotli)", Math.round(figures.bundleBrotliBytes / 1024), 150),
  ];
}
