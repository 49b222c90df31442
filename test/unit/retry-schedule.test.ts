import { describe, expect, it } from "vitest";
import { duration, durations } from "../../src/env.js";
import { delayBeforeAttempt, isLastAttempt } from "../../src/domain/webhooks/retry-schedule.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** WEBHOOK_RETRY_DELAYS' default. */
const DEFAULT = "2m,10m,15m,1h,2h,6h,11h";

describe("duration", () => {
  it.each([
    ["500ms", 500],
    ["10s", 10_000],
    ["2m", 2 * MINUTE],
    ["1h", HOUR],
    ["1d", 24 * HOUR],
    ["250", 250],
  ])("reads %s as %i ms", (text, ms) => {
    expect(duration.parse(text)).toBe(ms);
  });

  it.each(["10 s", "-1s", "1.5h", "", "1e3", "10x", "h", "1h30m"])("refuses %j", (text) => {
    expect(duration.safeParse(text).success).toBe(false);
  });
});

describe("durations", () => {
  it("reads the default schedule", () => {
    expect(durations.parse(DEFAULT)).toEqual([2 * MINUTE, 10 * MINUTE, 15 * MINUTE, HOUR, 2 * HOUR, 6 * HOUR, 11 * HOUR]);
  });

  it.each(["2m,,10m", "2m,10 s", "", "2m,10m,"])("reports %j as an invalid setting rather than throwing", (text) => {
    const parsed = durations.safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/a duration such as/);
  });
});

describe("delayBeforeAttempt", () => {
  const delays = durations.parse(DEFAULT);

  it("waits each delay of the schedule in turn, counted from the attempt before", () => {
    expect([2, 3, 4, 5, 6, 7, 8].map((n) => delayBeforeAttempt(n, delays))).toEqual(delays);
  });

  it("repeats the last delay for attempts beyond the schedule (a redelivered event)", () => {
    expect(delayBeforeAttempt(9, delays)).toBe(11 * HOUR);
    expect(delayBeforeAttempt(20, delays)).toBe(11 * HOUR);
  });
});

describe("isLastAttempt", () => {
  const delays = durations.parse(DEFAULT);

  it("gives an event 1 + 7 attempts over 20 h 27 min before it is exhausted", () => {
    let attempt = 1;
    let waited = 0;
    while (!isLastAttempt(attempt, null, delays)) {
      attempt += 1;
      waited += delayBeforeAttempt(attempt, delays);
    }
    expect(attempt).toBe(8);
    expect(waited).toBe(20 * HOUR + 27 * MINUTE);
  });

  it("follows the event's own limit when it has one (set on redelivery)", () => {
    expect(isLastAttempt(8, 9, delays)).toBe(false);
    expect(isLastAttempt(9, 9, delays)).toBe(true);
    expect(isLastAttempt(1, 1, delays)).toBe(true);
  });

  it("takes its default limit from the schedule's length", () => {
    expect(isLastAttempt(2, null, [50])).toBe(true);
    expect(isLastAttempt(1, null, [50])).toBe(false);
  });
});
