import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMerchant } from "../factories.js";
import { startApiProcess } from "./harness.js";

const servers: { kill: () => void }[] = [];
afterAll(() => servers.forEach((server) => server.kill()));

describe("a freshly started API process", () => {
  // Its Redis connection is still being made when the first calls arrive; they must wait for it,
  // not fail with 503 (this made the first of two concurrent SSE subscriptions fail at random).
  it("answers its first concurrent calls after a restart, all of them", async () => {
    const merchant = await buildMerchant();
    const first = await startApiProcess();
    first.kill();
    const api = await startApiProcess();
    servers.push(api);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${api.base}/api/merchants.configurations.info?merchantId=${merchant.merchantId}`, {
          headers: { "x-api-key": merchant.apiKey },
        }).then((response) => response.status),
      ),
    );
    expect(statuses).toEqual(Array(20).fill(200));
  });
});

describe("bodies over a real socket", () => {
  let api: Awaited<ReturnType<typeof startApiProcess>>;
  beforeAll(async () => {
    api = await startApiProcess();
    servers.push(api);
  });

  /** A body sent with Content-Length (declared), or in chunks with no length (streamed). */
  const send = (path: string, headers: Record<string, string>, text: string, streamed: boolean) =>
    fetch(`${api.base}${path}`, {
      method: "POST",
      headers,
      ...(streamed
        ? {
            body: new ReadableStream({
              start(controller) {
                const bytes = new TextEncoder().encode(text);
                for (let at = 0; at < bytes.length; at += 16_384) controller.enqueue(bytes.subarray(at, at + 16_384));
                controller.close();
              },
            }),
            duplex: "half",
          }
        : { body: text }),
    } as RequestInit);

  /** The ids of a merchant's requests, read with GraphQL. */
  const requestIdsOf = async (apiKey: string, streamed: boolean) => {
    const query = JSON.stringify({ query: "{ paymentRequests(first: 5) { edges { node { id } } } }" });
    const response = await send("/graphql", { "x-api-key": apiKey, "content-type": "application/json" }, query, streamed);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { paymentRequests: { edges: { node: { id: string } }[] } } };
    return body.data.paymentRequests.edges.map((edge) => edge.node.id);
  };

  for (const streamed of [false, true]) {
    const how = streamed ? "streamed" : "declared";

    it(`runs GraphQL and REST calls whose body is ${how}`, async () => {
      const merchant = await buildMerchant();
      const headers = { "x-api-key": merchant.apiKey, "content-type": "application/json" };
      const rest = await send(
        "/api/requests.create",
        headers,
        JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 250 }),
        streamed,
      );
      expect(rest.status).toBe(200);
      const created = (await rest.json()) as { requestId: string };
      expect(created).toMatchObject({ merchantId: merchant.merchantId, denomination: { amount: 250, asset: "NZD" } });
      expect(await requestIdsOf(merchant.apiKey, streamed)).toEqual([created.requestId]);
    });

    it(`refuses a ${how} body over 64 KiB on both transports, creating nothing`, async () => {
      const merchant = await buildMerchant();
      const headers = { "x-api-key": merchant.apiKey, "content-type": "application/json" };
      const graphql = await send(
        "/graphql",
        headers,
        JSON.stringify({ query: "{ __typename }", pad: "x".repeat(70_000) }),
        streamed,
      );
      expect(graphql.status).toBe(413);
      const rest = await send(
        "/api/requests.create",
        headers,
        JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 250, pad: "x".repeat(70_000) }),
        streamed,
      );
      expect(rest.status).toBe(400);
      expect(await rest.json()).toMatchObject({ statusCode: 400, message: "BAD_REQUEST" });
      expect(await requestIdsOf(merchant.apiKey, streamed)).toEqual([]);
    });
  }
});
