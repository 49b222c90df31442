/**
 * The supervisor's choice when a process of a ready group stops: a crash is started again, but a
 * process that said what stopped it (a signing key it cannot read) stops the group, since starting
 * it again would only fail again. Stand-in processes (`node -e`) play the API and the worker.
 */
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runProcessGroup } from "../../scripts/start/process-group.js";
import { until } from "../until.js";

/** An API that says it listens and runs until it is stopped. */
const api = { name: "API" as const, args: ["-e", "process.send({ listening: 4000 }); setInterval(() => {}, 1000)"] };

/**
 * A worker that stops as `exit` does once the test has seen the group ready and said so (`ready`),
 * each time it runs. The group must have seen the API listen first: a process that stops before,
 * however soon the API would have said it listens, is a failure to start.
 */
function worker(exit: string) {
  const flag = join(tmpdir(), `payreq-group-ready-${randomUUID()}`);
  onTestFinished(() => rm(flag, { force: true }));
  const script = `const t = setInterval(() => { if (require("fs").existsSync(${JSON.stringify(flag)})) { clearInterval(t); ${exit} } }, 20)`;
  return { process: { name: "worker" as const, args: ["-e", script] }, ready: () => writeFile(flag, "") };
}

describe("a process group, once it is ready", () => {
  it("stops the group when a process says what stopped it, repeating the sentence", async () => {
    const said: string[] = [];
    const stopping = worker(`process.send({ problem: "The signing key file k.pem cannot be read." }, () => process.exit(1))`);
    const group = runProcessGroup([api, stopping.process], {
      stopTimeoutMs: 5_000,
      say: (line) => said.push(line),
    });
    await group.listening;
    await stopping.ready();
    let code: number | undefined;
    void group.stopped.then((stoppedWith) => (code = stoppedWith));
    await until(
      () => code,
      (stoppedWith) => stoppedWith !== undefined,
      10_000,
      "the group to stop",
    ).finally(() => group.stop("the test ended"));
    expect({ code, problems: group.problems }).toEqual({ code: 1, problems: ["The signing key file k.pem cannot be read."] });
    expect(said.join("\n")).not.toMatch(/starting it again/);
  });

  it("starts a process that crashed again, and the group goes on", async () => {
    const said: string[] = [];
    const crashing = worker("process.exit(3)");
    const group = runProcessGroup([api, crashing.process], { stopTimeoutMs: 5_000, say: (line) => said.push(line) });
    await group.listening;
    await crashing.ready();
    await until(
      () => said.join("\n"),
      (lines) => lines.includes("the worker stopped (exit code 3): starting it again in 1 s"),
      10_000,
    );
    group.stop("the test ended");
    expect(await group.stopped).toBe(0);
  });
});
