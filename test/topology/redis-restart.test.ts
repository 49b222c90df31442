import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import type { Daemon } from "../../scripts/engines/daemon.js";
import { freePorts } from "../../scripts/engines/free-ports.js";
import { startRedisServer } from "../../scripts/engines/redis-server.js";
import { buildRequest } from "../factories.js";
import { until } from "../until.js";
import { startReceiver } from "../worker/harness.js";
import { deliveredNotifications, openRequests, payAll, refusals, startService } from "./service.js";

const OUTAGE_MS = 10_000;

let port: number;
let redis: Daemon;
let service: Awaited<ReturnType<typeof startService>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** The receiver's calls it refused (each notification's first). */
const refusedCalls = new Set<number>();

/** A single Redis on `port` that keeps nothing on disk: started again, it is empty. */
const startRedis = () => startRedisServer(port);

beforeAll(async () => {
  [port] = (await freePorts(1)) as [number];
  // Each notification's first attempt is refused, its second (2 s later, a delayed job in Redis)
  // accepted: the notifications of the last 2 s before the stop are waiting in Redis when it goes.
  const seen = new Set<unknown>();
  receiver = await startReceiver((index) => {
    const jti = decodeJwt(receiver.received[index]!.token).jti;
    if (seen.has(jti)) return {};
    seen.add(jti);
    refusedCalls.add(index);
    return { status: 500 };
  });
  redis = await startRedis();
  service = await startService(
    { REDIS_URL: `redis://127.0.0.1:${port}/0` },
    { WEBHOOK_RETRY_DELAYS: "2s,200ms,200ms,200ms,200ms,200ms,200ms", EXPIRY_SWEEP_INTERVAL: "1s" },
  );
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([redis?.stop(), receiver?.close()]);
});

describe("a single Redis stopped for 10 s and started again empty, under calls", () => {
  it("answers 503 meanwhile, then heals; every notification is delivered and the sweeps run again", async () => {
    const { merchant, ids } = await openRequests(120, receiver.url);
    let outage: Promise<{ stoppedAt: number; startedAt: number; pendingAtStop: number }> | undefined;
    const answers = await payAll(service.api.base, merchant, ids, {
      concurrency: 2,
      pauseMs: 50,
      onPaid: (paid) => {
        if (paid !== 40) return;
        outage = (async () => {
          await redis.stop("SIGKILL");
          const stoppedAt = Date.now();
          const pendingAtStop = await db.delivery.count({ where: { requestId: { in: ids }, state: "PENDING" } });
          await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
          redis = await startRedis();
          return { stoppedAt, startedAt: Date.now(), pendingAtStop };
        })();
      },
    });
    const { stoppedAt, startedAt, pendingAtStop } = await outage!;
    const outcome = await deliveredNotifications(
      ids,
      () => receiver.received.filter((_, i) => !refusedCalls.has(i)),
      30_000,
      service.worker.log,
    );
    const refused = refusals(answers);
    console.log(
      `redis restart: down ${startedAt - stoppedAt} ms; calls answered 503 for ${refused.spanMs} ms (${refused.refused.length} answers, ` +
        `last answered ${refused.to - startedAt} ms after the start); ${pendingAtStop} notifications pending at the stop; ` +
        `${outcome.delivered} delivered, ${outcome.lost} lost, ${outcome.duplicates} duplicated`,
    );

    expect(pendingAtStop).toBeGreaterThan(0);
    expect(outcome.events).toHaveLength(120);
    expect(outcome.lost).toBe(0);
    for (const jtis of outcome.jtisByTransaction.values()) expect(jtis.size).toBe(1);
    // Refused while Redis was down, and only then.
    expect(refused.refused.length).toBeGreaterThan(0);
    expect(refused.from).toBeGreaterThanOrEqual(stoppedAt - 1_000);
    expect(refused.to).toBeLessThanOrEqual(startedAt + 5_000);
    // The worker told of Redis's outage alone (PostgreSQL never went away), and its schedules came
    // back with Redis: a request overdue now is stored EXPIRED by the sweep.
    expect(service.worker.lines.filter((l) => l.dependency === "PostgreSQL")).toEqual([]);
    expect(service.worker.running()).toBe(true);
    const { request } = await buildRequest({ merchant, paymentExpirySeconds: 1 });
    const stored = await until(
      () => db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } }),
      (row) => row.status === "EXPIRED",
      15_000,
      "the expiry sweep to store the request expired",
    );
    expect(stored.status).toBe("EXPIRED");
  }, 120_000);
});
