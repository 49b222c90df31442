import { randomUUID } from "node:crypto";
import { UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { isLostJobState, readJob, unknownJob, WEBHOOK_QUEUE, webhookJobs } from "../../worker/queues.js";

describe("the worker's jobs", () => {
  it("read their data as their kind declares it", () => {
    const eventIds = [randomUUID(), randomUUID()];
    expect(readJob(webhookJobs.firstAttempts, { name: "first-attempts", id: "first.1", data: { eventIds } })).toEqual({
      eventIds,
    });
    const eventId = randomUUID();
    expect(readJob(webhookJobs.deliver, { name: "deliver-webhook", id: `${eventId}.8`, data: { eventId } })).toEqual({
      eventId,
    });
  });

  it.each([
    ["a batch without events", "firstAttempts", { eventIds: [] }],
    ["a delivery carrying a batch", "deliver", { eventIds: [randomUUID()] }],
    ["an event id that is no id", "deliver", { eventId: "1; DROP TABLE" }],
    ["no data", "deliver", null],
  ] as const)("fail for good when they carry data they cannot have: %s", (_, kind, data) => {
    const { name, data: schema } = webhookJobs[kind];
    expect(() => readJob({ data: schema }, { name, id: "x", data })).toThrow(UnrecoverableError);
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
