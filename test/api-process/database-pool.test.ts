/**
 * DATABASE_POOL_SIZE: how many connections an API process holds at most, whatever its load, as an
 * operator sizing PostgreSQL's max_connections counts them in pg_stat_activity (by their name).
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { db } from "../prisma.js";
import { buildMerchant } from "../factories.js";
import { startApiProcess } from "../service-processes.js";

/** The API's connections to this file's database now, by pg_stat_activity. */
async function apiConnections(): Promise<number> {
  const [row] = await db.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = 'payreq-api'`;
  return row!.count;
}

describe("DATABASE_POOL_SIZE", () => {
  it("bounds an API process's connections under a burst of calls, which all succeed, and names them payreq-api", async () => {
    const merchant = await buildMerchant();
    const api = await startApiProcess({ DATABASE_POOL_SIZE: "3" });
    onTestFinished(() => void api.kill());

    let bursting = true;
    let most = 0;
    const watching = (async () => {
      while (bursting) most = Math.max(most, await apiConnections());
    })();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${api.base}/api/requests.create`, {
          method: "POST",
          headers: { "x-api-key": merchant.apiKey, "content-type": "application/json" },
          body: JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 100 + i }),
        }).then((response) => response.status),
      ),
    );
    bursting = false;
    await watching;

    expect(statuses).toEqual(Array(30).fill(200));
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    const created = await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } });
    expect(created).toBe(30);
  });
});
