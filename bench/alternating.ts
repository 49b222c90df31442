/**
 * Two or more servers that differ in one thing (tracing on or off, the Redis or PostgreSQL they
 * run on), measured on the same operations in alternating runs: drift on a shared machine weighs
 * on every variant alike, so their ratios mean something where their absolute figures may not.
 */
import type { Options } from "autocannon";
import { load, run as runFor, type LoadTiming } from "./load.js";
import { record, type Row } from "./report.js";

/** A server of one variant: where to call it and which processes' CPU to read. */
export interface Variant {
  url: string;
  pid: number | number[];
}

export interface VariantFigures {
  rps: number;
  /** CPU µs per call of `pid`; null when /proc could not say. */
  cpu: number | null;
  /** Half the range of the runs' own CPU µs per call: how far one run strayed; null when /proc could not say. */
  cpuSpread: number | null;
  /** CPU µs per call of PostgreSQL (all its processes) over the same runs; null when /proc could not say. */
  dbCpu: number | null;
}

/** Per operation: each variant's mean figures, and each against the first variant (ratios). */
export type Compared<V extends string> = Record<
  string,
  { [name in V]: VariantFigures } & { rpsRatio: Record<V, number>; cpuRatio: Record<V, number | null> }
>;

/** New processes' first runs of an operation compile its paths, which a run's own warm-up is too short for. */
const FIRST_WARMUP_SECONDS = 4;

/**
 * Runs every operation against every variant `rounds` times, the order reversed each round (so
 * each variant runs first as often), after one unmeasured warm-up of each. Rows are recorded as
 * `<section>.<variant>.<operation>`.
 */
export async function compareAlternating<V extends string>(
  section: string,
  variants: Record<V, Variant>,
  operations: Record<string, (url: string) => Options>,
  timing: LoadTiming,
  { rounds = 2, connections = 16 }: { rounds?: number; connections?: number } = {},
): Promise<Compared<V>> {
  const names = Object.keys(variants) as V[];
  const compared = {} as Compared<V>;
  for (const [operation, options] of Object.entries(operations)) {
    const measured = Object.fromEntries(names.map((name) => [name, [] as Row[]])) as Record<V, Row[]>;
    for (const name of names) await runFor(options(variants[name].url), FIRST_WARMUP_SECONDS);
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const { url, pid } = variants[name];
        const measuredRun = await load(options(url), timing, pid);
        measured[name].push(
          record(`${section}.${name}.${operation}`, section, `${operation}, ${name}`, connections, measuredRun, {
            cpuOf: `API, ${name}`,
          }),
        );
      }
    }
    const figures = Object.fromEntries(
      names.map((name) => [
        name,
        {
          rps: Math.round(mean(measured[name], (r) => r.rps)!),
          cpu: roundOrNull(mean(measured[name], (r) => r.cpuMicrosPerCall)),
          cpuSpread: roundOrNull(halfRange(measured[name], (r) => r.cpuMicrosPerCall)),
          dbCpu: roundOrNull(mean(measured[name], (r) => r.dbCpuMicrosPerCall)),
        },
      ]),
    ) as Record<V, VariantFigures>;
    const first = figures[names[0]!];
    compared[operation] = {
      ...figures,
      rpsRatio: Object.fromEntries(names.map((name) => [name, Number((figures[name].rps / first.rps).toFixed(2))])) as Record<
        V,
        number
      >,
      cpuRatio: Object.fromEntries(
        names.map((name) => [name, first.cpu && figures[name].cpu ? Number((figures[name].cpu / first.cpu).toFixed(2)) : null]),
      ) as Record<V, number | null>,
    };
  }
  return compared;
}

/** Prints each operation's variants against the first: req/s and CPU per call, and their ratios. */
export function printCompared<V extends string>(compared: Compared<V>, variants: readonly V[]): void {
  const [first, ...rest] = variants;
  for (const [operation, figures] of Object.entries(compared))
    for (const name of rest)
      console.log(
        `    ${operation.padEnd(24)} ${name} ÷ ${first}: req/s ${figures[first!].rps} → ${figures[name].rps} (${figures.rpsRatio[name]}×), ` +
          `CPU per call ${figures[first!].cpu ?? "?"} → ${figures[name].cpu ?? "?"} µs (${figures.cpuRatio[name] ?? "?"}×), ` +
          `PostgreSQL's ${figures[first!].dbCpu ?? "?"} → ${figures[name].dbCpu ?? "?"} µs`,
      );
}

function mean(rows: Row[], pick: (row: Row) => number | undefined): number | null {
  const values = rows.map(pick).filter((v): v is number => v !== undefined);
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

function halfRange(rows: Row[], pick: (row: Row) => number | undefined): number | null {
  const values = rows.map(pick).filter((v): v is number => v !== undefined);
  return values.length ? (Math.max(...values) - Math.min(...values)) / 2 : null;
}

const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));
