import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { app } from "../fixtures.js";
import { buildMerchant } from "../factories.js";

// The Fetch API cannot carry a body on GET, so these go over a real socket on loopback.
let server: ReturnType<typeof serve>;
let port: number;

beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("legacy HTTP", () => {
  it("reads a form body sent with GET, as the spec's samples do", async () => {
    const merchant = await buildMerchant();
    const body = new URLSearchParams({ merchantId: merchant.merchantId, asset: "NZD", amount: "300" }).toString();
    const { status, json } = await send(
      "GET",
      "/api/requests.create",
      {
        "x-api-key": merchant.apiKey,
        "content-type": "application/x-www-form-urlencoded",
        "content-length": String(Buffer.byteLength(body)),
      },
      body,
    );
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: "new", denomination: { amount: 300, asset: "NZD" } });
  });

  it("serves an OpenAPI 3.1 document of the dotted routes that validates", async () => {
    const { status, json } = await send("GET", "/api/openapi.json", {});
    expect(status).toBe(200);
    expect(json.openapi).toBe("3.1.0");
    expect(Object.keys(json.paths as object).sort()).toEqual([
      "/api/events.list",
      "/api/merchants.configurations.info",
      "/api/requests.cancel",
      "/api/requests.create",
      "/api/requests.info",
      "/api/requests.pay",
      "/api/transactions.refund",
      "/pay",
      "/pay/{code}",
      "/pay/{code}/events",
      "/pay/{code}/qr.svg",
      "/pay/{code}/status",
    ]);
    await expect(SwaggerParser.validate(structuredClone(json) as never)).resolves.toBeTruthy();
    // The new fields and the pay page's error are described.
    const create = (
      json.paths as Record<
        string,
        { post: { responses: { "200": { content: Record<string, { schema: { properties: object } }> } } } }
      >
    )["/api/requests.create"]!.post;
    expect(Object.keys(create.responses["200"].content["application/json"]!.schema.properties)).toEqual(
      expect.arrayContaining(["shortCode", "qrCode", "redirectUrl"]),
    );
    expect((json.info as { description: string }).description).toContain("INVALID_REDIRECT_URL");
    const pay = (
      json.paths as Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: object } }> } } }>
    )["/api/requests.pay"]!.post;
    expect(Object.keys(pay.requestBody.content["application/json"]!.schema.properties)).toEqual(
      expect.arrayContaining(["requestId", "ledger", "authorization", "paymentAuthorization"]),
    );
  });
});

describe("GraphQL over a socket", () => {
  it("keeps one request id for a body sent in chunks (no Content-Length): the answer's X-Request-Id is the audit trail's", async () => {
    const merchant = await buildMerchant();
    const body = JSON.stringify({
      query: `mutation { requestCreate(input: { merchantId: "${merchant.merchantId}", asset: "NZD", amount: 300 }) { ... on PaymentRequest { id } } }`,
    });
    const { requestId, created } = await new Promise<{ requestId: string; created: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/graphql",
          headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk));
          res.on("end", () =>
            resolve({
              requestId: String(res.headers["x-request-id"]),
              created: (JSON.parse(text) as { data: { requestCreate: { id: string } } }).data.requestCreate.id,
            }),
          );
        },
      );
      req.on("error", reject);
      // Written before end(): Node sends it chunked, the way a streaming client does.
      req.write(body);
      req.end();
    });
    const activity = await db.activity.findFirstOrThrow({ where: { requestId: created, action: "request.created" } });
    expect(activity.correlationId).toBe(requestId);
  });
});
