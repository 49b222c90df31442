import { describe, expect, it } from "vitest";
import { app, rest } from "../fixtures.js";
import { buildMerchant } from "../factories.js";

describe("GET /metrics", () => {
  it("exposes HTTP, payment and outbox metrics after a scenario", async () => {
    const merchant = await buildMerchant();
    const created = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 5, notifyUrl: "https://shop.example/hook" },
    });
    await rest("requests.pay", {
      apiKey: merchant.apiKey,
      json: { requestId: created.body.requestId, ledger: "test.uplink", authorization: "x" },
    });
    await rest("requests.nope", { apiKey: merchant.apiKey });

    const response = await app.fetch(new Request("http://test/metrics"));
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toMatch(/payreq_http_requests_total\{route="requests.create",method="POST",status="200"\} [1-9]/);
    expect(text).toMatch(/payreq_http_requests_total\{route="unknown",method="GET",status="404"\} [1-9]/);
    expect(text).toMatch(/payreq_http_request_duration_seconds_bucket\{le="0.005",route="requests.pay",method="POST"\}/);
    expect(text).toMatch(/payreq_request_changes_total\{change="PAID"\} [1-9]/);
    expect(text).toMatch(/payreq_webhook_backlog [1-9]/);
  });
});
