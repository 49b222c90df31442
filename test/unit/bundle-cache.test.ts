import { appendFile, cp, mkdir, mkdtemp, readdir, rm, symlink, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleFolder, removeStaleBundles } from "../../scripts/bundle-cache.js";

const root = resolve(import.meta.dirname, "../..");
const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function temporaryRoot() {
  const dir = await mkdtemp(join(tmpdir(), "payreq-bundles-"));
  made.push(dir);
  return dir;
}

describe("npm start's bundles", () => {
  it("are named by the content of the sources, wherever they are, and change with any of them", async () => {
    const copy = await temporaryRoot();
    for (const input of ["src", "worker", "scripts", "package-lock.json", "tsconfig.json"]) {
      await cp(join(root, input), join(copy, input), { recursive: true });
    }
    expect(basename(bundleFolder(copy))).toBe(basename(bundleFolder(root)));
    expect(bundleFolder(copy)).toBe(join(copy, ".data", "bundles", basename(bundleFolder(root))));

    await appendFile(join(copy, "worker", "index.ts"), "\n");
    const afterWorkerChange = basename(bundleFolder(copy));
    expect(afterWorkerChange).not.toBe(basename(bundleFolder(root)));
    // A new file counts too (a module the sources may come to import), and the lockfile (the packages bundled in).
    await mkdir(join(copy, "src", "new-folder"));
    await appendFile(join(copy, "src", "new-folder", "module.ts"), "export {};\n");
    const afterNewFile = basename(bundleFolder(copy));
    expect(afterNewFile).not.toBe(afterWorkerChange);
    await appendFile(join(copy, "package-lock.json"), "\n");
    expect(basename(bundleFolder(copy))).not.toBe(afterNewFile);
  });

  it("no start used for a day are removed, the rest kept, and one another start removed meanwhile passed over", async () => {
    const dir = await temporaryRoot();
    const bundles = join(dir, ".data", "bundles");
    await mkdir(join(bundles, "old"), { recursive: true });
    await mkdir(join(bundles, "recent"));
    await mkdir(join(bundles, "killed.123.partial"));
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(join(bundles, "old"), twoDaysAgo, twoDaysAgo);
    await utimes(join(bundles, "killed.123.partial"), twoDaysAgo, twoDaysAgo);
    // Listed, but gone by the time it is looked at: as a folder another start removed between the two.
    await symlink(join(bundles, "removed-meanwhile"), join(bundles, "gone"));

    await removeStaleBundles(dir);
    expect((await readdir(bundles)).sort()).toEqual(["gone", "recent"]);
  });
});
