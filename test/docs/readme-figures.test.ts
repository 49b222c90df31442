/**
 * The README's figures that the checkout itself can tell: the start transcript's migration count,
 * and the bench result its measured figures come from (each figure as that file has it).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");

describe("the README's figures", () => {
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
