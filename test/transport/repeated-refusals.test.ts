/**
 * A caller refused again in a window its meter has already spent is answered only after a pause
 * (transport/rate-limit.ts), so that a flood that ignores Retry-After is slowed to that pace on
 * each connection; another meter's calls do not wait for it.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../../src/domain/errors.js";
import { addressMeter, createRateLimiter, REPEATED_REFUSAL_DELAY_MS } from "../../src/transport/rate-limit.js";
import { testEnv } from "../../vitest.config.js";

const redis = new Redis(testEnv.REDIS_URL);
afterAll(() => redis.quit());

/** How long a charge took, and whether it was refused. */
async function timed(charge: () => Promise<void>) {
  const started = performance.now();
  const refused = await charge().then(
    () => false,
    (error: unknown) => error instanceof RateLimitedError,
  );
  return { refused, ms: performance.now() - started };
}

describe("repeated refusals", () => {
  it("hold a call refused again in a spent window, and nobody else's", async () => {
    const limiter = createRateLimiter(redis, 1);
    // One window for the whole test: a minute with at least 10 s left.
    const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
    const flooder = addressMeter(`flooder-${randomUUID()}`);
    const other = addressMeter(`other-${randomUUID()}`);

    expect((await timed(() => limiter.charge(flooder, 1, at))).refused).toBe(false);
    expect((await timed(() => limiter.charge(flooder, 1, at))).refused).toBe(true);
    const again = await Promise.all([1, 2, 3].map(() => timed(() => limiter.charge(flooder, 1, at))));
    for (const { refused, ms } of again) {
      expect(refused).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(REPEATED_REFUSAL_DELAY_MS - 1);
    }
    const meanwhile = timed(() => limiter.charge(other, 1, at));
    const held = timed(() => limiter.charge(flooder, 1, at));
    expect(await meanwhile).toMatchObject({ refused: false });
    expect((await meanwhile).ms).toBeLessThan((await held).ms);
  });
});
