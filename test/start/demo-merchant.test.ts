/**
 * The demo merchant `npm start` prints (scripts/start/demo-merchant.ts, the step the supervisor runs):
 * each start issues new keys and revokes the ones the start before printed, so a restart leaves one
 * working merchant key and one working payer key. Run twice on a database of the test's own, as two
 * starts would, with an API process on that database answering the keys.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { reportedPort, spawnNode } from "../../scripts/node-process.js";
import type { DemoCredentials } from "../../scripts/start/demo-merchant.js";
import { built } from "../built.js";
import { ownDatabase } from "./project-copy.js";

const database = await ownDatabase();
const cleanups: (() => unknown)[] = [database.drop];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** One start's demo step: the credentials it sends the supervisor. */
async function seedDemo(): Promise<DemoCredentials> {
  const step = spawn(process.execPath, built("scripts/start/demo-merchant.ts"), {
    env: { ...process.env, DATABASE_URL: database.url },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const message = await new Promise<{ demo?: DemoCredentials; problem?: string }>((resolve, reject) => {
    step.once("message", resolve);
    step.once("exit", (code) => reject(new Error(`the demo step exited ${code} without a message`)));
  });
  if (!message.demo) throw new Error(`the demo step: ${message.problem}`);
  return message.demo;
}

describe("npm start's demo merchant", () => {
  it("after a restart the API refuses the keys the start before printed and takes the new ones", async () => {
    const first = await seedDemo();
    const second = await seedDemo();
    expect(second.merchantId).toBe(first.merchantId);

    const api: ChildProcess = spawnNode([...built("src/api/server.ts")], {
      env: { ...process.env, DATABASE_URL: database.url, PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info" },
      stdout: "ignore",
    });
    cleanups.push(() => api.kill("SIGKILL"));
    const port = await reportedPort(api, "the API");
    /** What the API answers a key reading the second start's demo request. */
    const read = async (key: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/requests.info?requestCode=${second.request.requestCode}`, {
        headers: { "X-Api-Key": key },
      });
      return { status: response.status, message: ((await response.json()) as { message?: string }).message };
    };
    expect(await read(first.merchantKey)).toEqual({ status: 401, message: "KEY_NOT_AUTHORIZED" });
    expect(await read(first.payerKey)).toEqual({ status: 401, message: "KEY_NOT_AUTHORIZED" });
    expect((await read(second.merchantKey)).status).toBe(200);
    expect((await read(second.payerKey)).status).toBe(200);
  });
});
