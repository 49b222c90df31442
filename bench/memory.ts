/**
 * Memory of every process the run starts: resident memory when idle (after start-up, before any
 * load) and at its peak (VmHWM, read at the end), for each process of `npm start`'s tree and the
 * baseline.
 */
import { mib, readMemory, type ProcessEntry } from "./proc.js";
import type { ServiceProcesses } from "./service.js";

export interface ProcessMemory {
  role: string;
  pid: number;
  command: string;
  idleMiB: number;
  peakMiB?: number;
}

/** The roles of the service's processes and the baseline, in the order they are printed. */
export function roles(
  service: ServiceProcesses,
  baselinePid: number,
): { role: string; entry: Pick<ProcessEntry, "pid" | "argv"> }[] {
  return [
    { role: "npm (runs npm start)", entry: service.npm },
    ...service.launchers.map((entry) => ({ role: "launcher", entry })),
    { role: "supervisor", entry: service.supervisor },
    ...service.helpers.map((entry) => ({ role: "supervisor's helper", entry })),
    { role: "API", entry: service.api },
    { role: "worker", entry: service.worker },
    { role: "baseline (bench only)", entry: { pid: baselinePid, argv: ["bench/baseline-server.ts"] } },
  ];
}

/** A short form of a command line: the executable's and the script's base names. */
const short = (argv: string[]) =>
  argv
    .filter((word, i) => i === 0 || !word.startsWith("-"))
    .slice(0, 3)
    .map((word) => word.split("/").at(-1))
    .join(" ");

export async function idleMemory(list: ReturnType<typeof roles>): Promise<ProcessMemory[]> {
  return Promise.all(
    list.map(async ({ role, entry }) => ({
      role,
      pid: entry.pid,
      command: short(entry.argv),
      idleMiB: mib((await readMemory(entry.pid)).rss),
    })),
  );
}

/** Adds each process's peak; a process that has ended meanwhile has none. */
export async function withPeaks(idle: ProcessMemory[]): Promise<ProcessMemory[]> {
  return Promise.all(
    idle.map(async (process) => {
      const memory = await readMemory(process.pid).catch(() => null);
      return memory ? { ...process, peakMiB: mib(memory.peak) } : process;
    }),
  );
}

export function printMemory(memory: ProcessMemory[]): void {
  console.log("\nMemory (RSS, MiB): idle after start-up, peak (VmHWM) at the end");
  for (const { role, pid, command, idleMiB, peakMiB } of memory)
    console.log(
      `  ${role.padEnd(22)} ${String(idleMiB).padStart(5)} idle  ${String(peakMiB ?? "ended").padStart(5)} peak   pid ${pid}: ${command}`,
    );
}

/**
 * The supervisor with its helpers (those still running): what `npm start` costs besides the API,
 * the worker and npm itself. Null without a figure for the supervisor.
 */
export function supervisorMiB(memory: ProcessMemory[], figure: "idleMiB" | "peakMiB"): number | null {
  const supervisor = memory.find((process) => process.role === "supervisor")?.[figure];
  if (supervisor === undefined) return null;
  const helpers = memory.filter((process) => process.role === "supervisor's helper");
  return helpers.reduce((sum, helper) => sum + (helper[figure] ?? 0), supervisor);
}
