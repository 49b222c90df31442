/**
 * The README's figures that the checkout itself can tell: the start transcript's package and
 * migration counts, and the bench result its measured figures come from (each figure as that file
 * has it); and that the documents say what is, not what was.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { documents } from "./markdown.js";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/**
 * The packages `npm ci` installs from package-lock.json on the machines the README's transcript
 * comes from (Linux, x64, glibc): every package reachable from the project's dependencies (peers
 * that are not optional included), less those whose os, cpu or libc rule this platform out, with
 * what only they need. npm's own count ("added N packages").
 */
function packagesInstalled(): number {
  type Entry = {
    link?: boolean;
    os?: string[];
    cpu?: string[];
    libc?: string[];
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  const lock = (JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, Entry> })
    .packages;
  const allows = (list: string[] | undefined, value: string) =>
    !list ||
    (list.some((item) => (item.startsWith("!") ? item.slice(1) !== value : item === value)) && !list.includes(`!${value}`));
  const fits = (entry: Entry) =>
    allows(entry.os, "linux") && allows(entry.cpu, "x64") && (!entry.libc || entry.libc.includes("glibc"));
  // Node's lookup: the package's own node_modules, then each enclosing one.
  const resolve = (from: string, name: string): string | undefined => {
    for (let dir = from; ;) {
      const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      if (candidate in lock) return candidate;
      if (!dir) return undefined;
      const at = dir.lastIndexOf("/node_modules/");
      dir = at === -1 ? "" : dir.slice(0, at);
    }
  };
  const installed = new Set<string>();
  const visit = (path: string) => {
    const entry = lock[path]!;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
    const needs = [
      ...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...(path === "" ? entry.devDependencies : {}) }),
      ...peers,
    ];
    for (const name of needs) {
      const at = resolve(path, name);
      if (!at || installed.has(at) || lock[at]!.link || !fits(lock[at]!)) continue;
      installed.add(at);
      visit(at);
    }
  };
  visit("");
  return installed.size;
}

describe("the README's figures", () => {
  it("names as many packages in its start transcript as npm ci installs from package-lock.json", () => {
    expect(/added (\d+) packages/.exec(readme)?.[1]).toBe(String(packagesInstalled()));
  });

  it("names as many migrations in its start transcript as prisma/migrations holds", () => {
    const migrations = readdirSync(join(root, "prisma/migrations"), { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    expect(/applying (\d+) migrations/.exec(readme)?.[1]).toBe(String(migrations.length));
  });

  it("quotes the tracing cost and the tenant isolation as the bench result it names has them", () => {
    const named = [...readme.matchAll(/\[(bench\/reference\/[\w.-]+\.json)\]/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const file of new Set(named)) expect(existsSync(join(root, file)), file).toBe(true);

    const tracingAt = readme.indexOf("Tracing every call is not free");
    const tracing = readme.slice(tracingAt, readme.indexOf("OTEL_TRACES_SAMPLER", tracingAt)).replace(/\s+/g, " ");
    const tracingFile = /\[(bench\/reference\/[\w.-]+\.json)\]/.exec(tracing)![1]!;
    const { tracing: measured } = JSON.parse(readFileSync(join(root, tracingFile), "utf8")) as {
      tracing: { operations: Record<string, { rpsRatio: number }> };
    };
    const quoted = Object.fromEntries(
      [...tracing.matchAll(/([\w.]+(?: paymentRequest)?) (?:ran )?at ([\d.]+)×/g)].map((match) => [match[1]!, Number(match[2])]),
    );
    expect(quoted).toEqual({
      "requests.info": measured.operations["requests.info"]!.rpsRatio,
      "requests.pay": measured.operations["requests.pay"]!.rpsRatio,
      "GraphQL paymentRequest": measured.operations["GraphQL paymentRequest"]!.rpsRatio,
    });

    const runAt = readme.indexOf("A quick run on 2026-11-26");
    const run = readme.slice(runAt, readme.indexOf("\n\n", runAt)).replace(/\s+/g, " ");
    const runFile = /\[(bench\/reference\/[\w.-]+\.json)\]/.exec(run)![1]!;
    const { isolation } = JSON.parse(readFileSync(join(root, runFile), "utf8")) as {
      isolation: { flood: string; ratio: number }[];
    };
    const floods = [...run.matchAll(/([\d.]+)× (?:idle )?under the ([\w/-]+) flood/g)].map((match) => [match[2]!, match[1]!]);
    expect(floods).toEqual(isolation.map(({ flood, ratio }) => [flood.replace(" ", "-"), ratio.toFixed(2)]));
  });

  it("docs/scaling.md quotes the topologies' costs as the bench result it names has them", () => {
    const scaling = readFileSync(join(root, "docs/scaling.md"), "utf8");
    const section = scaling.slice(scaling.indexOf("### What the steps cost, measured"), scaling.indexOf("### The steps"));
    const file = /\[(bench\/reference\/[\w.-]+\.json)\]/.exec(section)![1]!;
    type Figures = { rps: number; cpu: number; dbCpu: number };
    type Compared = Record<string, Record<string, Figures> & { rpsRatio: Record<string, number> }>;
    const { topology } = JSON.parse(readFileSync(join(root, file), "utf8")) as {
      topology: Record<"redis" | "postgres" | "apiProcesses", Compared> & { webhooks: Record<string, { ratio: number }> };
    };
    const row = (group: Compared, first: string, variant: string, delivered?: number) => {
      const [info, pay] = [group["requests.info"]!, group["requests.pay"]!];
      const change = (from: number, to: number) => `${from} → ${to} µs`;
      return [
        `${info.rpsRatio[variant]}×`,
        `${pay.rpsRatio[variant]}×`,
        change(pay[first]!.cpu, pay[variant]!.cpu),
        change(info[first]!.dbCpu, info[variant]!.dbCpu),
        change(pay[first]!.dbCpu, pay[variant]!.dbCpu),
        delivered === undefined ? "" : `${delivered}×`,
      ];
    };
    const quoted = section
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| variant") && !line.startsWith("| ---"))
      .map((line) =>
        line
          .split("|")
          .slice(3, -1)
          .map((cell) => cell.trim()),
      );
    expect(quoted).toEqual([
      row(topology.redis, "single", "cluster", topology.webhooks["cluster"]!.ratio),
      row(topology.postgres, "direct", "unprepared"),
      row(topology.postgres, "direct", "pooler", topology.webhooks["pooler"]!.ratio),
      row(topology.apiProcesses, "one", "two"),
    ]);
  });
});

/**
 * Phrases that narrate a change (what the code did before, what it does now) rather than say what
 * is. The documents describe the service as it is, with figures a reader can take again; the
 * history is in the commits. A comparison of two ways the service runs today (a setting on or off)
 * reads "with …, without …" or "against".
 */
const NARRATION = [
  /\bbefore this (issue|change|work)/i,
  /\bpreviously\b/i,
  /\bused to\b/i,
  /\bformerly\b/i,
  /\b(fell|went|dropped|rose|grew) (down )?from\b/i,
  /\b(down|up) from\b/i,
  /\bwhere it was\b/i,
  /\bwhat was done\b/i,
  /\bis gone\b/i,
  /\bbegan to\b/i,
  /\bwas added\b/i,
  /\bthe earlier ones\b/i,
  /\bno longer (waits|uses|goes|reads)\b/i,
  /\bnow (takes|reads|counts|warms|is read)\b/i,
  /\d[\d.,]* ?(ms|µs|MiB|calls a second) (before|now)\b/,
  /\b(is|are) unchanged\b/i,
  /\bgoes on receiving\b/i,
];

describe("the documents", () => {
  it("say what is, not what was", () => {
    const found = documents.flatMap((file) =>
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .flatMap((line, i) =>
          NARRATION.filter((phrase) => phrase.test(line)).map((phrase) => `${file}:${i + 1}: ${phrase.exec(line)![0]}`),
        ),
    );
    expect(found).toEqual([]);
  });
});
