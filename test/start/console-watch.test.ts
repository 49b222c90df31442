/**
 * `npm run dev` and the console: its watcher bundles the console again when one of the app's files
 * changes, and the watched API restarts on the new bundle. Run on a copy of the app, so the test
 * changes no file of the project.
 */
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { watchConsole } from "../../scripts/start/console-bundle.js";
import { entrypoints } from "../../scripts/start/entrypoints.js";
import { until } from "../until.js";

const root = resolve(import.meta.dirname, "../..");
const APP = join("src", "http", "console", "app");

describe("npm run dev and the console", () => {
  it("bundles the console again when one of its files changes", async () => {
    const copy = await mkdtemp(join(tmpdir(), "payreq-console-watch-"));
    const said: string[] = [];
    let stop: (() => Promise<void>) | undefined;
    try {
      await cp(join(root, APP), join(copy, APP), { recursive: true });
      await symlink(join(root, "node_modules"), join(copy, "node_modules"));
      stop = await watchConsole(copy, (message) => said.push(message));
      const bundle = join(copy, "src", "generated", "console", "console.js");
      await until(
        () => readFile(bundle, "utf8").catch(() => ""),
        (text) => text.includes("Sign in"),
        30_000,
        "the first bundle",
      );

      const messages = join(copy, APP, "messages.ts");
      await writeFile(messages, (await readFile(messages, "utf8")).replace('"Sign in"', '"Sign in, changed while watched"'));
      await until(
        () => readFile(bundle, "utf8"),
        (text) => text.includes("Sign in, changed while watched"),
        30_000,
        "the bundle made again",
      );
      expect(said).toEqual(["bundled the console again"]);
    } finally {
      await stop?.();
      await rm(copy, { recursive: true, force: true });
    }
  });

  it("restarts the watched API when the bundle changes, and only the API", () => {
    const [api, worker] = entrypoints({ watch: true, sourceMaps: true });
    const watched = `--include=${join(root, "src", "generated", "console")}/*`;
    expect(api!.args).toContain(watched);
    expect(worker!.args).not.toContain(watched);
  });
});
