/**
 * The worker's container health check: the worker rewrites its heartbeat file while PostgreSQL and
 * Redis answer, and worker/health-check.ts passes on a fresh heartbeat only.
 */
import { built } from "../built.js";
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until, withWorker, workerConfig } from "./harness.js";

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), "payreq-health-"))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the health check as the container does, with the worker's environment; its exit code. */
async function healthCheck(file?: string): Promise<{ code: number; stderr: string }> {
  const env = { ...process.env };
  if (file) env["WORKER_HEALTH_FILE"] = file;
  else delete env["WORKER_HEALTH_FILE"];
  return promisify(execFile)(process.execPath, [...built("worker/health-check.ts")], { env }).then(
    () => ({ code: 0, stderr: "" }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
}

describe("the worker's health check", () => {
  it("passes while the worker beats, and fails once the heartbeat is old or missing", async () => {
    const file = join(dir, "heartbeat");
    const config = workerConfig();
    await withWorker({ ...config, health: { file, everyMs: 100 } }, async () => {
      const first = await until(
        () =>
          stat(file).then(
            (s) => s.mtimeMs,
            () => 0,
          ),
        (mtime) => mtime > 0,
      );
      // It keeps beating.
      await until(
        () => stat(file).then((s) => s.mtimeMs),
        (mtime) => mtime > first,
      );
      expect(await healthCheck(file)).toEqual({ code: 0, stderr: "" });
    });

    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    const stale = await healthCheck(file);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/heartbeat at .* is 6\d s old/);

    const missing = await healthCheck(join(dir, "never-written"));
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining("no heartbeat at")]);
    expect((await healthCheck()).code).toBe(1);
  });
});
