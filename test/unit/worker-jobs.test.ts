import { randomUUID } from "node:crypto";
import { UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { isLostJobState, readJob, unknownJob, WEBHOOK_QUEUE, webhookJobs } from "../../worker/queues.js";

describe("the worker's jobs", () => {
  it("read their data as their kind declares it", () => {
    const attempts = [
      { eventId: randomUUID(), attempt: 1 },
      { eventId: randomUUID(), attempt: 3 },
    ];
    expect(readJob(webhookJobs.attempts, { name: "delivery-attempts", id: "1", data: { attempts } })).toEqual({ attempts });
  });

  it.each([
    ["no attempts", { attempts: [] }],
    ["more attempts than a job carries", { attempts: Array.from({ length: 11 }, () => ({ eventId: randomUUID(), attempt: 1 })) }],
    ["an attempt without its number", { attempts: [{ eventId: randomUUID() }] }],
    ["an attempt numbered 0", { attempts: [{ eventId: randomUUID(), attempt: 0 }] }],
    ["an event id that is no id", { attempts: [{ eventId: "1; DROP TABLE", attempt: 1 }] }],
    ["the data of an earlier version's job", { eventIds: [randomUUID()] }],
    ["no data (a job whose hash Redis lost)", null],
  ] as const)("fail for good when they carry data they cannot have: %s", (_, data) => {
    expect(() => readJob(webhookJobs.attempts, { name: undefined as unknown as string, id: "x", data })).toThrow(
      UnrecoverableError,
    );
  });

  it("fail for good under a name the queue does not know", () => {
    const error = unknownJob(WEBHOOK_QUEUE, { name: "deliver-everything" });
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toBe("no job deliver-everything on the webhooks queue");
  });

  it("tell a job whose Redis state a failover or an empty restart lost from any other error", () => {
    for (const message of [
      "Missing key for job first.4448278e-d38f-4645-90f4-279eadfaeabd. moveToFinished",
      "Missing lock for job first.d8cdfa79-9fe7-4182-9175-4108c7f7c438. moveToFinished",
      "could not renew lock for job first.d8cdfa79-9fe7-4182-9175-4108c7f7c438",
    ])
      expect(isLostJobState(new Error(message)), message).toBe(true);
    for (const message of ["Connection is closed.", "job first.1 failed: Missing key for job", "WRONGTYPE Operation"])
      expect(isLostJobState(new Error(message)), message).toBe(false);
  });
});
