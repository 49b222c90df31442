import { describe, expect, it } from "vitest";
import { oneRunAtATime } from "../../worker/one-run-at-a-time.js";

/** A run that finishes when told to, counting how many were started. */
function controlledWork() {
  const finishers: (() => void)[] = [];
  const failers: ((err: Error) => void)[] = [];
  return {
    started: () => finishers.length,
    work: () =>
      new Promise<void>((resolve, reject) => {
        finishers.push(resolve);
        failers.push(reject);
      }),
    finish: (index: number) => finishers[index]!(),
    fail: (index: number, err: Error) => failers[index]!(err),
  };
}

describe("one run at a time (the outbox poll)", () => {
  it("runs once at a time, and once more after a run however often it was asked meanwhile", async () => {
    const runs = controlledWork();
    const polls = oneRunAtATime(runs.work, () => {});
    polls.request();
    for (let i = 0; i < 5; i++) polls.request();
    expect(runs.started()).toBe(1);
    runs.finish(0);
    await expect.poll(() => runs.started()).toBe(2);
    runs.finish(1);
    await polls.settled();
    expect(runs.started()).toBe(2);
  });

  it("hands a failed run to its reporter and goes on running when asked", async () => {
    const runs = controlledWork();
    const failures: unknown[] = [];
    const polls = oneRunAtATime(runs.work, (err) => failures.push(err));
    polls.request();
    polls.request();
    runs.fail(0, new Error("database gone"));
    await expect.poll(() => runs.started()).toBe(2);
    expect(failures).toEqual([new Error("database gone")]);
    runs.finish(1);
    await polls.settled();
    polls.request();
    expect(runs.started()).toBe(3);
    runs.finish(2);
    await polls.settled();
    expect(failures).toHaveLength(1);
  });

  it("settles only once the run asked for meanwhile has finished too", async () => {
    const runs = controlledWork();
    const polls = oneRunAtATime(runs.work, () => {});
    polls.request();
    polls.request();
    let settled = false;
    const settling = polls.settled().then(() => (settled = true));
    runs.finish(0);
    await expect.poll(() => runs.started()).toBe(2);
    expect(settled).toBe(false);
    runs.finish(1);
    await settling;
    expect(settled).toBe(true);
  });
});
