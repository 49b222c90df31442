import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { startSentinelGroup, type SentinelGroup } from "../../scripts/engines/redis-sentinel.js";
import { startReceiver } from "../worker/harness.js";
import { deliveredNotifications, openRequests, payAll, refusals, startService } from "./service.js";

let group: SentinelGroup;
let service: Awaited<ReturnType<typeof startService>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  [group, receiver] = await Promise.all([startSentinelGroup(), startReceiver()]);
  service = await startService({
    REDIS_SENTINELS: group.sentinelsSetting,
    REDIS_SENTINEL_NAME: group.name,
    // With sentinels, REDIS_URL gives only credentials and the database: nothing listens at its
    // address, so a connection that ignored the sentinels would fail here.
    REDIS_URL: "redis://127.0.0.1:1/0",
  });
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([group?.stop(), receiver?.close()]);
});

/**
 * Pays `count` requests through the API, 8 at a time, and ends the master's reign with `replace`
 * after the first 30%: a call answered 503 is made again. Then waits for every notification, checks
 * what the issue asks of a failover, and prints the figures.
 */
async function burstThroughFailover(count: number, replace: () => ReturnType<SentinelGroup["killMaster"]>, what: string) {
  const { merchant, ids } = await openRequests(count, receiver.url);
  let failover: Promise<Awaited<ReturnType<typeof replace>> & { pendingAtFailure: number }> | undefined;
  const answers = await payAll(service.api.base, merchant, ids, {
    // A bound on a hang, not on speed: 500 pays take 7 s on a quiet machine, and over 30 s while
    // three test runs share its two cores.
    deadlineMs: 90_000,
    onPaid: (paid) => {
      if (paid !== Math.round(count * 0.3)) return;
      failover = (async () => {
        const pendingAtFailure = await db.delivery.count({ where: { requestId: { in: ids }, state: "PENDING" } });
        return { ...(await replace()), pendingAtFailure };
      })();
    },
  });
  const { failedAt, promotedAt, pendingAtFailure } = await failover!;
  const outcome = await deliveredNotifications(ids, () => receiver.received, 60_000, service.worker.log);
  const refused = refusals(answers);
  console.log(
    `${what}: promoted ${promotedAt - failedAt} ms after; calls answered 503 for ${refused.spanMs} ms ` +
      `(${refused.refused.length} answers, last answered ${refused.to - promotedAt} ms after the promotion); ` +
      `${pendingAtFailure} notifications pending then; ${outcome.delivered} delivered (the last ${outcome.deliveredAt - promotedAt} ms after the promotion), ` +
      `${outcome.lost} lost, ${outcome.duplicates} duplicated; ` +
      `${service.worker.lines.filter((l) => l.msg.endsWith("replacing it")).length} queue workers replaced`,
  );

  // Every transaction's notification arrived; a notification sent twice carried its one jti.
  expect(outcome.events).toHaveLength(count);
  expect(outcome.lost).toBe(0);
  expect(outcome.jtisByTransaction.size).toBe(count);
  for (const jtis of outcome.jtisByTransaction.values()) expect(jtis.size).toBe(1);
  // 503s only from the master's end until shortly after the promotion (a command sent before it
  // waits for its own timeout, and the clients reconnect after a backoff).
  if (refused.refused.length > 0) {
    expect(refused.from).toBeGreaterThanOrEqual(failedAt - 1_000);
    expect(refused.to).toBeLessThanOrEqual(promotedAt + 5_000);
  }
  // Nothing was restarted, and calls keep succeeding on the new master. The worker told of the
  // outage as one (its start and end), not as an error per retry of its clients, and as Redis's
  // alone: PostgreSQL never went away.
  expect(service.worker.running()).toBe(true);
  expect(service.worker.lines.filter((l) => l.msg === "worker error")).toEqual([]);
  expect(service.worker.lines.filter((l) => l.dependency === "PostgreSQL")).toEqual([]);
  const after = await openRequests(3, receiver.url);
  expect((await payAll(service.api.base, after.merchant, after.ids)).every((a) => a.status === 200)).toBe(true);
  expect((await deliveredNotifications(after.ids, () => receiver.received, 20_000, service.worker.log)).lost).toBe(0);
}

describe("a Sentinel group whose master fails during a burst of notifications", () => {
  it("a master that hangs (its connections open, unanswered) is left for the promoted replica", async () => {
    await burstThroughFailover(100, () => group.freezeMaster(), "sentinel failover, master frozen");
    // The frozen master wakes as a replica of the new one: the group can fail over again.
    await group.thaw();
  }, 90_000);

  it("a master killed during 500 notifications: 503 only while no master is reachable, then heals; none lost", async () => {
    await burstThroughFailover(500, () => group.killMaster(), "sentinel failover, master killed");
  }, 180_000);
});
