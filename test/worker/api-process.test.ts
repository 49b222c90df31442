import { afterAll, describe, expect, it } from "vitest";
import { buildMerchant } from "../factories.js";
import { startApiProcess } from "./harness.js";

const servers: { kill: () => void }[] = [];
afterAll(() => servers.forEach((server) => server.kill()));

describe("a freshly started API process", () => {
  // Its Redis connection is still being made when the first calls arrive; they must wait for it,
  // not fail with 503 (this made the first of two concurrent SSE subscriptions fail at random).
  it("answers its first concurrent calls, all of them", async () => {
    const merchant = await buildMerchant();
    const api = await startApiProcess();
    servers.push(api);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${api.base}/api/merchants.configurations.info?merchantId=${merchant.merchantId}`, {
          headers: { "x-api-key": merchant.apiKey },
        }).then((response) => response.status),
      ),
    );
    expect(statuses).toEqual(Array(10).fill(200));
  });
});
