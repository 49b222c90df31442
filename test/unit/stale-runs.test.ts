import { mkdir, mkdtemp, readdir, rm, symlink, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeStaleRuns } from "../../scripts/transpile.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("a start's clean-up of earlier runs' folders", () => {
  it("removes those over a day old, keeps the rest, and passes over one another start removed meanwhile", async () => {
    const root = await mkdtemp(join(tmpdir(), "payreq-runs-"));
    made.push(root);
    const runs = join(root, ".data", "run");
    await mkdir(join(runs, "old"), { recursive: true });
    await mkdir(join(runs, "recent"));
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(join(runs, "old"), twoDaysAgo, twoDaysAgo);
    // Listed, but gone by the time it is looked at: as a folder whose start ended between the two.
    await symlink(join(runs, "ended-meanwhile"), join(runs, "gone"));

    await removeStaleRuns(root);
    expect((await readdir(runs)).sort()).toEqual(["gone", "recent"]);
  });
});
