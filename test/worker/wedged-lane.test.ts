/**
 * A delivery lane whose BullMQ worker stops taking jobs (as one can after its Redis connection was
 * cut mid-failover, raising nothing) is given a new worker, and the job that waited runs; a lane
 * with nothing waiting is left alone.
 */
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import type { DueAttempt } from "../../src/domain/deliveries/claim.js";
import { connectRedis } from "../../src/redis-connection.js";
import { startDeliveryLanes } from "../../worker/delivery.js";
import type { DeliveryDeps } from "../../worker/jobs/deliver-webhook.js";
import { webhookJobs } from "../../worker/queues.js";
import { keptLog, until, workerConfig } from "./harness.js";

const config = workerConfig();
const connection = connectRedis(config.redis, { maxRetriesPerRequest: null });
afterAll(() => connection.quit());

it("replaces a lane's queue worker that took no waiting job for a lease, and the job runs; an idle lane keeps its worker", async () => {
  const { logger, lines } = keptLog();
  // The outbox only says which attempts were started: the job's attempt is of no delivery, so it ends there.
  const started: DueAttempt[] = [];
  const outbox = {
    start: async (due: DueAttempt) => {
      started.push(due);
      return null;
    },
  } as unknown as DeliveryDeps["outbox"];
  const deps = {
    config: config.webhooks,
    keys: undefined!,
    outbox,
    post: undefined!,
    logger,
    nextAttemptDue: () => {},
  } as DeliveryDeps;
  const leaseMs = 1_500;
  const lanes = startDeliveryLanes(
    connection,
    config,
    deps,
    leaseMs,
    () => {},
    () => {},
  );
  try {
    const [deliveries, tests] = lanes as [(typeof lanes)[0], (typeof lanes)[0]];
    await Promise.all(lanes.map((lane) => lane.worker.waitUntilReady()));
    const job = (eventId: string) => ({ name: webhookJobs.attempts.name, data: { attempts: [{ eventId, attempt: 1 }] } });

    // A lane that takes its jobs is not replaced.
    const healthy = deliveries.worker;
    const first = randomUUID();
    await deliveries.queue.add(job(first).name, job(first).data);
    await until(
      () => started.map((due) => due.eventId),
      (ids) => ids.includes(first),
      10_000,
    );
    // Finished, and not holding the next job (BullMQ takes the next one as it finishes a job).
    await until(
      () => deliveries.queue.getActiveCount(),
      (active) => active === 0,
      10_000,
    );

    // Then its worker stops taking jobs, saying nothing, as a wedged one does; and a job waits.
    await healthy.close(true);
    await until(
      () => healthy.isRunning(),
      (running) => !running,
      10_000,
      "the closed worker's loop to end",
    );
    const idle = tests.worker;
    const second = randomUUID();
    await deliveries.queue.add(job(second).name, job(second).data);
    await until(
      () => started.map((due) => due.eventId),
      (ids) => ids.includes(second),
      15_000,
      "the waiting job to run",
    );
    expect(deliveries.worker).not.toBe(healthy);
    const replaced = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["lane"]);
    expect(replaced).toEqual([
      expect.objectContaining({
        lane: "deliveries",
        waiting: 1,
        msg: "the delivery lane's queue worker took no waiting job for a lease; replacing it",
      }),
    ]);
    expect(replaced[0]!["sinceLastJobMs"]).toBeGreaterThanOrEqual(leaseMs);
    // The tests' lane had nothing waiting all along: still its first worker.
    expect(tests.worker).toBe(idle);
  } finally {
    await Promise.all(lanes.map((lane) => lane.close(true)));
    await Promise.all(lanes.map((lane) => lane.queue.obliterate({ force: true }).then(() => lane.queue.close())));
  }
});
