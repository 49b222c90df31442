import { describe, expect, it } from "vitest";
import { supervisorMiB, type ProcessMemory } from "../../bench/memory.js";
import type { ProcessEntry } from "../../bench/proc.js";
import { serviceProcesses } from "../../bench/service.js";

/** A process table from [pid, ppid, command line] rows, with unrelated processes around it. */
const table = (...rows: [number, number, string][]): ProcessEntry[] => [
  { pid: 1, ppid: 0, argv: ["/sbin/init"] },
  { pid: 50, ppid: 1, argv: ["node", "/elsewhere/src/api/server.js"] }, // another engineer's API, not under npm
  ...rows.map(([pid, ppid, command]) => ({ pid, ppid, argv: command.split(" ") })),
];
const pids = (found: ReturnType<typeof serviceProcesses>) => ({
  npm: found.npm.pid,
  launchers: found.launchers.map((entry) => entry.pid),
  supervisor: found.supervisor.pid,
  helpers: found.helpers.map((entry) => entry.pid),
  api: found.api.pid,
  worker: found.worker.pid,
});

describe("the processes of npm start, as the bench finds them", () => {
  it("finds the supervisor, its helpers, the API and the worker of today's npm start", () => {
    const processes = table(
      [10, 9, "npm start"],
      [11, 10, "node --import tsx scripts/start/main.ts --demo"],
      [12, 11, "/app/node_modules/@esbuild/linux-x64/bin/esbuild --service=0.28.2 --ping"],
      [13, 11, "/usr/bin/node --enable-source-maps /app/.data/bundles/9aa8823503cb510b521d/src/api/server.js"],
      [14, 11, "/usr/bin/node --enable-source-maps /app/.data/bundles/9aa8823503cb510b521d/worker/index.js"],
    );
    expect(pids(serviceProcesses(processes, 10))).toEqual({
      npm: 10,
      launchers: [],
      supervisor: 11,
      helpers: [12],
      api: 13,
      worker: 14,
    });
  });

  it("finds them the same way behind a bootstrap, from the build, or under a runner that starts another process", () => {
    const bootstrap = table(
      [10, 9, "npm start"],
      [11, 10, "node scripts/start/bootstrap.js --demo"],
      [12, 11, "node dist/scripts/start/main.js --demo"],
      [13, 12, "node dist/src/api/server.js"],
      [14, 12, "node dist/worker/index.js"],
    );
    expect(pids(serviceProcesses(bootstrap, 10))).toMatchObject({ launchers: [11], supervisor: 12, api: 13, worker: 14 });
    const watch = table(
      [10, 9, "npm run dev"],
      [11, 10, "node --import tsx scripts/start/main.ts --demo --watch"],
      [12, 11, "node node_modules/tsx/dist/cli.mjs watch --clear-screen=false src/api/server.ts"],
      [13, 11, "node node_modules/tsx/dist/cli.mjs watch --clear-screen=false worker/index.ts"],
      [14, 12, "node --require preflight.cjs --import loader.mjs src/api/server.ts"],
      [15, 13, "node --require preflight.cjs --import loader.mjs worker/index.ts"],
    );
    // The deepest process of each entry point is the one serving; their parents differ, so this shape is refused.
    expect(() => serviceProcesses(watch, 10)).toThrow(/different parents/);
  });

  it("says what it found when the API or the worker is missing", () => {
    const noWorker = table([10, 9, "npm start"], [11, 10, "node main.js"], [13, 11, "node src/api/server.js"]);
    expect(() => serviceProcesses(noWorker, 10)).toThrow(/found 0 such processes.*11 \(parent 10\): node main\.js/);
    expect(() => serviceProcesses(noWorker, 99)).toThrow(/not running/);
  });
});

describe("the supervisor's memory", () => {
  const memory = (rows: [string, number, number?][]): ProcessMemory[] =>
    rows.map(([role, idleMiB, peakMiB], pid) => ({
      role,
      pid,
      command: role,
      idleMiB,
      ...(peakMiB === undefined ? {} : { peakMiB }),
    }));

  it("counts the supervisor with the helpers it keeps running, not npm, the API or the worker", () => {
    const run = memory([
      ["npm (runs npm start)", 59, 59],
      ["supervisor", 40, 45],
      ["supervisor's helper", 15, 16],
      ["supervisor's helper", 50], // ended before the end: no peak
      ["API", 160, 400],
      ["worker", 140, 170],
    ]);
    expect(supervisorMiB(run, "idleMiB")).toBe(40 + 15 + 50);
    expect(supervisorMiB(run, "peakMiB")).toBe(45 + 16);
    expect(supervisorMiB(memory([["API", 160, 400]]), "peakMiB")).toBeNull();
  });
});
