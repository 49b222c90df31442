import { describe, expect, it } from "vitest";
import { workerEnv } from "../../src/env.js";

describe("QUEUE_PREFIX", () => {
  it("takes a plain prefix, or one in braces (a Redis Cluster hash tag), and nothing else", () => {
    for (const prefix of ["payreq", "pay-req:eu_1", "{payreq}", "{pay:eu-1}"])
      expect(workerEnv.shape.QUEUE_PREFIX.safeParse(prefix).success, prefix).toBe(true);
    for (const prefix of ["", "pay req", "{payreq", "payreq}", "{pay}req", "{}", "pay*"])
      expect(workerEnv.shape.QUEUE_PREFIX.safeParse(prefix).success, prefix).toBe(false);
  });
});
