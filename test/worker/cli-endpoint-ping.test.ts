/**
 * `npm run admin -- endpoint ping` with a worker running: the CLI's test event is signed and sent
 * by the worker, and the CLI prints the attempt's outcome. Here, not in test/cli/admin.test.ts,
 * because a worker delivers everything in its database, and this file has one of its own.
 */
import { describe, expect, it } from "vitest";
import { adminWith } from "../cli/run-admin.js";
import { buildEndpoint, buildMerchant } from "../factories.js";
import { startReceiver, verifyNotifications, withWorker, workerConfig } from "./harness.js";

const admin = (...args: string[]) => adminWith({ WEBHOOK_TIMEOUT: "2s" }, ...args);

describe("admin CLI endpoint ping", () => {
  it("sends a signed test event through the worker and prints its outcome, exiting 1 unless delivered", async () => {
    let status = 200;
    const receiver = await startReceiver(() => ({ status }));
    const merchant = await buildMerchant();
    const endpoint = await buildEndpoint(merchant, { url: receiver.url, enabled: false });
    await withWorker(workerConfig({ timeoutMs: 2_000 }), async () => {
      // A disabled endpoint is tried too: a test event is how one is checked before it is enabled.
      const ok = await admin("endpoint", "ping", endpoint.id, "--json");
      expect(ok.code).toBe(0);
      const delivered = JSON.parse(ok.stdout) as { deliveryId: string };
      expect(delivered).toEqual({
        deliveryId: expect.any(String),
        delivered: true,
        outcome: "DELIVERED",
        statusCode: 200,
        durationMs: expect.any(Number),
      });
      const [claims] = await verifyNotifications(receiver.received.map((r) => r.token));
      expect(claims).toMatchObject({
        type: "ping",
        jti: delivered.deliveryId,
        endpoint: { endpointId: endpoint.id, url: receiver.url },
      });

      status = 500;
      const failed = await admin("endpoint", "ping", endpoint.id);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(
        /^deliveryId: [0-9a-f-]{36}\ndelivered: false\noutcome: FAILED\nstatusCode: 500\ndurationMs: \d+\nerror: .+\n$/,
      );
      expect(receiver.received).toHaveLength(2);
    });
    await receiver.close();
  });
});
