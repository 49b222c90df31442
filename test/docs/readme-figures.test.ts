/**
 * The README's figures that the checkout itself can tell: the start transcript's migration count,
 * and the bench result its measured figures come from (each figure as that file has it).
 */
import { readdirSync, readFileSync } from "node:fs";
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
});
