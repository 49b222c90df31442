/**
 * The worker's heartbeat (worker/heartbeat.ts): a stopped worker does not beat. The beats are held
 * at the two points where a stop used to be overtaken: a health check still waiting for its
 * answer, and a write of the file already under way (the file is a FIFO, whose write waits for a
 * reader).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHeartbeat } from "../../worker/heartbeat.js";

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), "payreq-heartbeat-"))));
afterAll(() => rm(dir, { recursive: true, force: true }));

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("the worker's heartbeat", () => {
  it("writes nothing once stopped, when its health check answers after the stop", async () => {
    const file = join(dir, "checked-after-stop");
    let answer!: () => void;
    const writes: string[] = [];
    const heartbeat = startHeartbeat(
      file,
      60_000,
      () => new Promise<void>((resolve) => (answer = resolve)),
      async (written) => void writes.push(written),
    );
    await heartbeat.stop();
    answer();
    // The beat decides in the turn its check answers: by the next, any write it makes has begun.
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([]);
    expect(await exists(file)).toBe(false);
  });

  it("stops only once a write already under way has ended", async () => {
    const fifo = join(dir, "write-under-way");
    await promisify(execFile)("mkfifo", [fifo]);
    let checked!: () => void;
    const beatChecked = new Promise<void>((resolve) => (checked = resolve));
    const heartbeat = startHeartbeat(fifo, 60_000, async () => checked());
    let reading: Promise<string> | undefined;
    try {
      // The check has answered, and what follows it in the same turn has started the write, which waits for a reader.
      await beatChecked;
      await new Promise((resolve) => setImmediate(resolve));
      const stopped = Promise.resolve(heartbeat.stop()).then(() => "stopped");
      expect(await Promise.race([stopped, sleep(200, "still writing")])).toBe("still writing");
      reading = readFile(fifo, "utf8");
      expect(await stopped).toBe("stopped");
      expect(await reading).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    } finally {
      // Never leave the write waiting for a reader.
      await (reading ?? readFile(fifo, "utf8"));
    }
  });
});
