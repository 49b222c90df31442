import { describe, expect, it } from "vitest";
import { pool } from "../../src/db.js";
import { db } from "../prisma.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { pingWebhookEndpoint } from "../../src/domain/deliveries/ping.js";
import { buildEndpoint, buildMerchant, buildRequest, payer } from "../factories.js";
import { until } from "../until.js";

/** Whether some session waits for a lock the session `pid` holds. */
const blockedBy = async (pid: number) =>
  (
    await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))",
      [pid],
    )
  ).rows[0]!.n > 0;

describe("webhook endpoints beside the calls that fan out to them", () => {
  it("let a payment complete while its merchant's endpoint is being deleted, without a delivery to it", async () => {
    const merchant = await buildMerchant();
    const endpoint = await buildEndpoint(merchant);
    const { request } = await buildRequest({ merchant });
    const deleting = await pool.connect();
    try {
      const { pid } = (await deleting.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!;
      await deleting.query("BEGIN");
      await deleting.query("DELETE FROM webhook_endpoint WHERE id = $1", [endpoint.id]);
      // The payment reads the endpoints it fans out to, and waits for the deletion to end.
      const paying = payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
      await until(() => blockedBy(pid), Boolean, 10_000, "the payment to wait for the deletion");
      await deleting.query("COMMIT");
      expect(await paying).toMatchObject({ status: "PAID" });
    } finally {
      deleting.release();
    }
    expect(await db.event.findMany({ where: { requestId: request.id } })).toMatchObject([{ type: "PAYMENT_COMPLETED" }]);
    expect(await db.delivery.count({ where: { requestId: request.id } })).toBe(0);
  });

  it("answer a test event whose endpoint is deleted while it waits as WEBHOOK_ENDPOINT_NOT_FOUND", async () => {
    const merchant = await buildMerchant();
    const endpoint = await buildEndpoint(merchant);
    // No worker runs here: the test event waits for its attempt until the endpoint goes.
    const pinging = pingWebhookEndpoint(merchant.ctx, { endpointId: endpoint.id }, 20_000);
    await until(
      () => db.delivery.count({ where: { endpointId: endpoint.id } }),
      (n) => n === 1,
    );
    await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    await expect(pinging).rejects.toMatchObject({ code: "WEBHOOK_ENDPOINT_NOT_FOUND" });
  });
});
