import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idSupply } from "../../bench/load.js";
import { parseOptions, poolSize } from "../../bench/options.js";
import { percentile, ratio, ratios, verdict, type Row, type Target } from "../../bench/report.js";

const target = (value: number | null, goal: number, direction: Target["direction"]): Target => ({
  name: "t",
  value,
  goal,
  direction,
});

describe("the bench's target verdicts", () => {
  it("meets an 'at least' goal from the goal up, an 'at most' goal up to it, a 'below' goal only under it", () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
        fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
        (value, goal) => {
          expect(verdict(target(value, goal, "at least"))).toBe(value >= goal ? "met" : "missed");
          expect(verdict(target(value, goal, "at most"))).toBe(value <= goal ? "met" : "missed");
          expect(verdict(target(value, goal, "below"))).toBe(value < goal ? "met" : "missed");
        },
      ),
    );
    expect(verdict(target(50, 50, "at most"))).toBe("met");
    expect(verdict(target(50, 50, "below"))).toBe("missed");
    expect(verdict(target(600, 600, "at least"))).toBe("met");
  });

  it("says a figure the run did not measure is not measured, never met or missed", () => {
    for (const direction of ["at least", "at most", "below"] as const) {
      expect(verdict(target(null, 1, direction))).toBe("not measured");
      expect(verdict(target(Number.NaN, 1, direction))).toBe("not measured");
    }
  });
});

describe("the bench's ratios", () => {
  it("divides to two decimals, and has no ratio without both figures", () => {
    expect(ratio(734, 1000)).toBe(0.73);
    expect(ratio(1, 3)).toBe(0.33);
    expect(ratio(2, 3)).toBe(0.67);
    expect(ratio(null, 3)).toBeNull();
    expect(ratio(3, undefined)).toBeNull();
    expect(ratio(3, 0)).toBeNull();
  });

  it("compares each service figure with its twin at the same connection count, where both were measured", () => {
    const row = (key: string, connections: number, rps: number): Row => ({
      key,
      section: "s",
      operation: key,
      connections,
      rps,
      p50: 1,
      p97_5: 1,
      p99: 1,
      errors: 0,
    });
    const rows = [row("rest.pay", 16, 300), row("baseline.pay", 16, 600), row("rest.pay", 64, 200), row("rest.info", 16, 900)];
    expect(ratios(rows)).toEqual([{ of: "rest.pay", to: "baseline.pay", connections: 16, ratio: 0.5 }]);
    rows.push(row("baseline.pay", 64, 800), row("baseline.info", 16, 1000));
    expect(ratios(rows)).toEqual([
      { of: "rest.info", to: "baseline.info", connections: 16, ratio: 0.9 },
      { of: "rest.pay", to: "baseline.pay", connections: 16, ratio: 0.5 },
      { of: "rest.pay", to: "baseline.pay", connections: 64, ratio: 0.25 },
    ]);
  });

  it("takes percentiles by rank: of 20 values the p50 is the 11th and the p99 the largest", () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(11);
    expect(percentile(values, 99)).toBe(20);
    expect(percentile([7], 99)).toBe(7);
  });
});

describe("the bench's arguments", () => {
  it("takes --quick and one --only=webhooks or --only=tracing, and refuses anything else", () => {
    expect(parseOptions(["--quick", "--only=webhooks"])).toMatchObject({ quick: true, only: "webhooks", connections: [16] });
    expect(parseOptions(["--only=tracing"])).toMatchObject({ quick: false, only: "tracing" });
    expect(parseOptions(["--quick", "--only=money"])).toMatchObject({ quick: true, only: "money" });
    expect(parseOptions([])).toMatchObject({ quick: false, connections: [1, 16, 64] });
    expect(parseOptions([]).only).toBeUndefined();
    expect(() => parseOptions(["--fast"])).toThrow(/unknown argument --fast/);
    expect(() => parseOptions(["--only=scale"])).toThrow(/unknown argument --only=scale/);
    expect(() => parseOptions(["--only=webhooks", "--only=tracing"])).toThrow(/one --only at a time/);
  });
});

describe("the bench's pools of pre-created requests", () => {
  it("hold enough for a row's warm-up and run at 1000 calls a second, in both modes", () => {
    for (const args of [[], ["--quick"]]) {
      const options = parseOptions(args);
      expect(poolSize(options)).toBeGreaterThanOrEqual((options.warmup + options.duration) * 1000);
    }
  });

  it("hand out every id once, then stop the run rather than reuse one", () => {
    const next = idSupply(["a", "b", "c"], "requests");
    expect([next(), next(), next()]).toEqual(["a", "b", "c"]);
    expect(() => next()).toThrow(/the 3 pre-created requests ran out/);
  });
});
