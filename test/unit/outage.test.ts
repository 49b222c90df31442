import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.js";
import { outageReporter, SETTLED_MS } from "../../worker/outage.js";

function reporter() {
  const said: string[] = [];
  const logger = createLogger({ level: "info" });
  vi.spyOn(logger, "error").mockImplementation(((_: unknown, msg: string) => void said.push(msg)) as never);
  vi.spyOn(logger, "info").mockImplementation(((_: unknown, msg: string) => void said.push(msg)) as never);
  return { said, outage: outageReporter("PostgreSQL", logger) };
}

describe("an outage's report", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is one line when it starts and one when it ends, however many errors come between", () => {
    const { said, outage } = reporter();
    outage.failed(new Error("reset"));
    outage.failed(new Error("reset"));
    vi.advanceTimersByTime(SETTLED_MS);
    outage.recovered();
    outage.recovered();
    expect(said).toEqual(["PostgreSQL is unreachable; retrying with backoff", "PostgreSQL is reachable again"]);
  });

  it("goes on when a connection cut with the rest fails just after another answered", () => {
    const { said, outage } = reporter();
    outage.failed(new Error("reset"));
    outage.recovered();
    vi.advanceTimersByTime(SETTLED_MS / 2);
    outage.failed(new Error("a connection cut with the rest"));
    vi.advanceTimersByTime(5 * SETTLED_MS);
    expect(said).toEqual(["PostgreSQL is unreachable; retrying with backoff"]);
    outage.failed(new Error("still down"));
    outage.recovered();
    vi.advanceTimersByTime(SETTLED_MS - 1);
    expect(said).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(said).toEqual(["PostgreSQL is unreachable; retrying with backoff", "PostgreSQL is reachable again"]);
  });

  it("ends SETTLED_MS after an answer that came once, with no error since", () => {
    const { said, outage } = reporter();
    outage.failed(new Error("reset"));
    outage.recovered();
    vi.advanceTimersByTime(SETTLED_MS - 1);
    expect(said).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(said).toEqual(["PostgreSQL is unreachable; retrying with backoff", "PostgreSQL is reachable again"]);
  });
});
