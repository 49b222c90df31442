import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  clockTicksPerSecond,
  cpuMicrosPerCall,
  cpuTicks,
  listProcesses,
  memoryKiB,
  parentPid,
  readCpuTicks,
  readMemory,
  postgresTicksBetween,
  readPostgresTicks,
} from "../../bench/proc.js";
import { pool } from "../../src/db.js";

/** A /proc/<pid>/stat line as proc(5) lays it out, with utime and stime at fields 14 and 15. */
const statLine = (comm: string, { ppid = 1, utime = 0, stime = 0 } = {}) =>
  [`4242 (${comm}) S ${ppid} 4242 4242 0 -1 4194560 1536 0 0 0 ${utime} ${stime}`, "0 0 20 0 11 0 1000 1117257728 41235"].join(
    " ",
  );

describe("the bench's /proc probes", () => {
  it("reads CPU time and the parent from a stat line, whatever the command's name holds", () => {
    for (const comm of ["node", "MainThread", "a (b) c", "x) S 9 9 9 0 -1 1 1 1 1 1 777 777", ")"]) {
      const line = statLine(comm, { ppid: 17, utime: 120, stime: 30 });
      expect([comm, cpuTicks(line), parentPid(line)]).toEqual([comm, 150, 17]);
    }
    expect(() => cpuTicks("not a stat line")).toThrow(/stat/);
  });

  it("reads this process's own stat: its parent, and CPU time that grows with work", async () => {
    const stat = await readFile("/proc/self/stat", "utf8");
    expect(parentPid(stat)).toBe(process.ppid);
    const ticksPerSecond = clockTicksPerSecond();
    const seconds = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1e6;
    const outerStart = process.cpuUsage();
    const before = await readCpuTicks(process.pid);
    const innerStart = process.cpuUsage();
    // Busy for 300 ms of CPU, however long a machine busy with other work takes to give them.
    while (seconds(process.cpuUsage(innerStart)) < 0.3);
    const inner = seconds(process.cpuUsage(innerStart));
    const after = await readCpuTicks(process.pid);
    const outer = seconds(process.cpuUsage(outerStart));
    const measuredSeconds = (after - before) / ticksPerSecond;
    // /proc and Node's own count agree within a few ticks: at least the busy loop's CPU, and at most
    // what the process used around the two reads (its other threads, a collection, work while a read waited).
    expect(measuredSeconds).toBeGreaterThan(inner - 5 / ticksPerSecond);
    expect(measuredSeconds).toBeLessThan(outer + 5 / ticksPerSecond);
  });

  it("divides the CPU time between two readings by the calls completed in between", () => {
    // 150 ticks at 100 Hz = 1.5 s over 1000 calls = 1500 µs a call, whatever the tick rate.
    expect(cpuMicrosPerCall(1000, 1150, 1000, 100)).toBe(1500);
    expect(cpuMicrosPerCall(1000, 2500, 1000, 1000)).toBe(1500);
    // More calls for the same time cost less each; twice the ticks cost twice as much.
    expect(cpuMicrosPerCall(0, 300, 2000, 100)!).toBeLessThan(cpuMicrosPerCall(0, 300, 1000, 100)!);
    expect(cpuMicrosPerCall(0, 600, 1000, 100)).toBe(2 * cpuMicrosPerCall(0, 300, 1000, 100)!);
    expect(cpuMicrosPerCall(0, 300, 0, 100)).toBeNull();
    expect(() => cpuMicrosPerCall(300, 200, 10, 100)).toThrow(/backwards/);
  });

  it("reads resident memory now and at its peak, which never falls below it", async () => {
    const status = "Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  250880 kB\nVmRSS:\t  204800 kB\nThreads:\t11\n";
    expect(memoryKiB(status)).toEqual({ rss: 204800, peak: 250880 });
    expect(() => memoryKiB("Name:\tkthreadd\n")).toThrow(/VmRSS/);
    const own = await readMemory(process.pid);
    expect(own.rss).toBeGreaterThan(0);
    expect(own.peak).toBeGreaterThanOrEqual(own.rss);
    // Node's figure is read at another moment, so only its order of magnitude is compared.
    expect(own.rss * 1024).toBeGreaterThan(process.memoryUsage().rss / 2);
  });

  it("lists a child it started, under this process, with its command line", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)", "marker-argument"], { stdio: "ignore" });
    try {
      await once(child, "spawn");
      const entry = (await listProcesses()).find((candidate) => candidate.pid === child.pid);
      expect(entry?.ppid).toBe(process.pid);
      expect(entry?.argv.at(-1)).toBe("marker-argument");
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("reads the CPU of PostgreSQL's processes (the tests' own server), which grows with the queries it runs", async () => {
    const before = await readPostgresTicks();
    expect([...before.values()].some((ticks) => ticks > 0)).toBe(true);
    // A query that keeps a backend busy for well over a clock tick.
    await pool.query("SELECT count(*) FROM generate_series(1, 3000000)");
    expect(postgresTicksBetween(before, await readPostgresTicks())).toBeGreaterThan(0);
  });

  it("counts PostgreSQL's CPU between readings per process: an ended backend never makes it go backwards", () => {
    const before = new Map([
      [10, 500],
      [11, 40],
      [12, 70],
    ]);
    // 11 ended; 12 added 5; 13 started and used 8; 10 added 20.
    const after = new Map([
      [10, 520],
      [12, 75],
      [13, 8],
    ]);
    expect(postgresTicksBetween(before, after)).toBe(33);
    expect(postgresTicksBetween(after, after)).toBe(0);
  });
});
