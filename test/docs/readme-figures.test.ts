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
});
