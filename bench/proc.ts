/**
 * CPU and memory probes read from Linux's /proc: a process's CPU time (utime + stime, in clock
 * ticks), its resident memory now (VmRSS) and at its peak (VmHWM), and the process table.
 * The parsers are pure (test/bench/proc.test.ts); the readers read the files.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/** The fields of /proc/<pid>/stat after `(comm)`, which may itself hold spaces and parentheses. */
function statFields(stat: string): string[] {
  const end = stat.lastIndexOf(")");
  if (end < 0) throw new Error(`bench: not a /proc/<pid>/stat line: ${stat.slice(0, 80)}`);
  // Field 3 (state) is the first after the name; see proc(5).
  return stat
    .slice(end + 1)
    .trim()
    .split(/\s+/);
}

/** The parent's pid, field 4 of /proc/<pid>/stat. */
export const parentPid = (stat: string) => Number(statFields(stat)[1]);

/** CPU time used by the process (all its threads), user plus system, in clock ticks: fields 14 and 15. */
export function cpuTicks(stat: string): number {
  const fields = statFields(stat);
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  if (!Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error(`bench: no utime/stime in ${stat.slice(0, 80)}`);
  return utime + stime;
}

/** Resident memory now (VmRSS) and its peak (VmHWM) from /proc/<pid>/status, in KiB. */
export function memoryKiB(status: string): { rss: number; peak: number } {
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status);
    if (!match) throw new Error(`bench: no ${name} in /proc/<pid>/status`);
    return Number(match[1]);
  };
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/**
 * Microseconds of CPU per call: the ticks a process used between two readings, over the calls it
 * completed meanwhile. Null without calls. A tick is 1/`ticksPerSecond` s (10 ms at 100 Hz), so
 * a run needs some hundreds of ticks for the figure to be within a percent.
 */
export function cpuMicrosPerCall(ticksBefore: number, ticksAfter: number, calls: number, ticksPerSecond: number): number | null {
  if (calls <= 0) return null;
  if (ticksAfter < ticksBefore) throw new Error("bench: CPU time went backwards (a different process?)");
  return Math.round(((ticksAfter - ticksBefore) * 1_000_000) / ticksPerSecond / calls);
}

export const mib = (kib: number) => Math.round(kib / 1024);

// ---- Readers ----

/** Clock ticks per second (`getconf CLK_TCK`, 100 on most Linux systems). */
export function clockTicksPerSecond(): number {
  const ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8", timeout: 5_000 }).trim());
  if (!Number.isInteger(ticks) || ticks <= 0) throw new Error(`bench: getconf CLK_TCK said ${ticks}`);
  return ticks;
}

export const readCpuTicks = async (pid: number) => cpuTicks(await readFile(`/proc/${pid}/stat`, "utf8"));

/**
 * The CPU ticks of every PostgreSQL process on the machine (the server, its backends and its
 * background workers), by pid: the database's whole cost, vacuum and WAL writing included.
 */
export async function readPostgresTicks(): Promise<Map<number, number>> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const ticks = new Map<number, number>();
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8");
        if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === "postgres") ticks.set(Number(pid), cpuTicks(stat));
      } catch {
        // ended meanwhile
      }
    }),
  );
  return ticks;
}

/**
 * The ticks PostgreSQL spent between two readings: what each process still there added, and all
 * of what a process started since has used. A backend that ended in between (a pool closing an
 * idle connection) takes its last ticks with it, so this can only undercount, never go backwards.
 */
export function postgresTicksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ticks] of after) spent += ticks - Math.min(before.get(pid) ?? 0, ticks);
  return spent;
}

export const readMemory = async (pid: number) => memoryKiB(await readFile(`/proc/${pid}/status`, "utf8"));

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** The command line's words (NUL-separated in /proc/<pid>/cmdline). */
  argv: string[];
}

/** Every process this user can read, with its parent and command line; those that end meanwhile are left out. */
export async function listProcesses(): Promise<ProcessEntry[]> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number);
  const entries = await Promise.all(
    pids.map(async (pid) => {
      try {
        const [stat, cmdline] = await Promise.all([
          readFile(`/proc/${pid}/stat`, "utf8"),
          readFile(`/proc/${pid}/cmdline`, "utf8"),
        ]);
        return { pid, ppid: parentPid(stat), argv: cmdline.split("\0").filter(Boolean) };
      } catch {
        return null;
      }
    }),
  );
  return entries.filter((entry) => entry !== null);
}
