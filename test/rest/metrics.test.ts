import { describe, expect, it } from "vitest";
import { createMetricsApp } from "../../src/http/metrics.js";
import { app, rest } from "../fixtures.js";
import { buildMerchant } from "../factories.js";

describe("GET /metrics", () => {
  it("exposes HTTP, payment and outbox metrics after a scenario", async () => {
    const merchant = await buildMerchant();
    const created = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 5, notifyUrl: "http://127.0.0.1:9/hook" },
    });
    await rest("requests.pay", {
      apiKey: merchant.apiKey,
      json: { requestId: created.body.requestId, ledger: "test.uplink", authorization: "x" },
    });
    await rest("requests.nope", { apiKey: merchant.apiKey });

    await app.fetch(
      new Request("http://test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
        body: JSON.stringify({ query: `query Missing { paymentRequest(id: "${crypto.randomUUID()}") { id } }` }),
      }),
    );
    const response = await createMetricsApp().fetch(new Request("http://test/metrics"));
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toMatch(/payreq_http_requests_total\{route="requests.create",method="POST",status="200"\} [1-9]/);
    expect(text).toMatch(/payreq_http_requests_total\{route="unknown",method="GET",status="404"\} [1-9]/);
    expect(text).toMatch(/payreq_http_request_duration_seconds_bucket\{le="0.005",route="requests.pay",method="POST"\}/);
    expect(text).toMatch(/payreq_request_changes_total\{change="PAID"\} [1-9]/);
    expect(text).toMatch(/payreq_webhook_backlog [1-9]/);
    expect(text).toMatch(/payreq_graphql_operations_total\{operationName="Missing",operationType="query"\} [1-9]/);
    expect(text).toMatch(/payreq_graphql_errors_total\{operationName="Missing",operationType="query",phase="execute"\} [1-9]/);
  });
});

describe("GraphQL metrics", () => {
  it("keep at most 100 operation names, however many a caller makes up; the rest count as (other)", async () => {
    const merchant = await buildMerchant();
    const run = crypto.randomUUID().replaceAll("-", "");
    const names = Array.from({ length: 130 }, (_, i) => `Made${run}_${i}`);
    for (const name of names) {
      const response = await app.fetch(
        new Request("http://test/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
          body: JSON.stringify({ query: `query ${name} { __typename }` }),
        }),
      );
      expect(response.status).toBe(200);
    }
    const text = await (await createMetricsApp().fetch(new Request("http://test/metrics"))).text();
    const series = text.split("\n").filter((line) => line.startsWith("payreq_graphql_operations_total{"));
    const labelled = new Set(series.map((line) => /operationName="([^"]*)"/.exec(line)![1]));
    expect(labelled.size).toBeLessThanOrEqual(101);
    expect(names.filter((name) => labelled.has(name)).length).toBeGreaterThan(0);
    expect(names.filter((name) => !labelled.has(name)).length).toBeGreaterThanOrEqual(30);
    expect(series.find((line) => line.includes('operationName="(other)"'))).toMatch(/ [1-9]\d*$/);
  });
});

describe("the public API port", () => {
  it("does not serve /metrics (it has a port of its own, METRICS_PORT)", async () => {
    const response = await app.fetch(new Request("http://test/metrics"));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("payreq_");
  });
});

describe("request ids", () => {
  it("follow a call from the response header into its audit row and its delivery", async () => {
    const merchant = await buildMerchant();
    const created = await rest("requests.create", {
      apiKey: merchant.apiKey,
      json: { merchantId: merchant.merchantId, asset: "NZD", amount: 5, notifyUrl: "http://127.0.0.1:9/hook" },
    });
    const paid = await rest("requests.pay", {
      apiKey: merchant.apiKey,
      headers: { "x-request-id": "till-42-pay" },
      json: { requestId: created.body.requestId, ledger: "test.uplink", authorization: "x" },
    });
    expect(paid.headers.get("x-request-id")).toBe("till-42-pay");
    expect(created.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const { db } = await import("../prisma.js");
    expect(await db.delivery.findFirstOrThrow({ where: { requestId: created.body.requestId } })).toMatchObject({
      correlationId: "till-42-pay",
    });
    expect(
      await db.activity.findFirstOrThrow({ where: { requestId: created.body.requestId, action: "request.paid" } }),
    ).toMatchObject({
      correlationId: "till-42-pay",
    });
  });
});
