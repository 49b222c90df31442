import { readdirSync, readFileSync } from "node:fs";

/** The running processes whose parent is `pid`, with their command lines (Linux's /proc). */
export function childrenOf(pid: number): { pid: number; args: string[] }[] {
  const found = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      // The fields after the command's name, which is in parentheses: state, then the parent's pid.
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(parent) !== pid || state === "Z") continue;
      found.push({ pid: Number(name), args: readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").slice(0, -1) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The pids of `pid`'s children that run the API (`…/src/api/server.js`). */
export const apiProcessesOf = (pid: number) =>
  childrenOf(pid)
    .filter(({ args }) => args.some((arg) => arg.endsWith("/src/api/server.js")))
    .map((child) => child.pid);
