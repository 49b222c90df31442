import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { buildMerchant } from "../factories.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";

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
    });

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

    it(`refuses a ${how} body over the limit on both transports (GraphQL 128 KiB, REST 64 KiB), creating nothing`, async () => {
      const merchant = await buildMerchant();
      const headers = { "x-api-key": merchant.apiKey, "content-type": "application/json" };
      const graphql = await send(
        "/graphql",
        headers,
        JSON.stringify({ query: "{ __typename }", pad: "x".repeat(132_000) }),
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

describe("SIGTERM under load", () => {
  interface Outcome {
    reference: string;
    startedAt: number;
    answeredAt: number;
    status: number | "no answer";
    code?: string;
  }

  it("finishes the calls running, refuses new ones, then exits 0: every answer's outcome is true", async () => {
    const merchant = await buildMerchant();
    const api = await startApiProcess({ SHUTDOWN_TIMEOUT: "20s" });
    servers.push(api);
    const outcomes: Outcome[] = [];
    let calls = 0;
    /** One requests.create with a reference of its own; false once a call is not created. */
    const create = async () => {
      const reference = `sigterm-${(calls += 1)}`;
      const startedAt = performance.now();
      try {
        const response = await fetch(`${api.base}/api/requests.create`, {
          method: "POST",
          headers: { "x-api-key": merchant.apiKey, "content-type": "application/json" },
          body: JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount: 100, externalReference: reference }),
        });
        const body = (await response.json()) as { message?: string };
        outcomes.push({ reference, startedAt, answeredAt: performance.now(), status: response.status, code: body.message });
        return response.status === 200;
      } catch {
        outcomes.push({ reference, startedAt, answeredAt: performance.now(), status: "no answer" });
        return false;
      }
    };
    // An open subscription must not hold the process open: it ends when the process stops.
    const stream = fetch(`${api.base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": merchant.apiKey },
      body: JSON.stringify({ query: "subscription { paymentRequestChanged { id } }" }),
    })
      .then((response) => response.text())
      .catch((err: Error) => `the stream failed: ${err.message}`);

    // 40 callers, each calling again as soon as it is answered, until a call is not created.
    const callers = Array.from({ length: 40 }, async () => {
      while (await create());
    });
    await until(
      () => outcomes.length,
      (answered) => answered >= 200,
      30_000,
      "200 calls answered",
    );
    const signalledAt = performance.now();
    const code = await api.stop("SIGTERM");
    await Promise.all(callers);

    const wrong = outcomes.filter((o) => o.status !== 200 && o.status !== "no answer" && o.code !== "EXTERNAL_SERVICE_ERROR");
    expect(wrong, "every refusal is 503 EXTERNAL_SERVICE_ERROR, nothing else").toEqual([]);
    expect(code, api.output().slice(-3000)).toBe(0);
    expect(await stream).toContain("event: complete");
    // Calls were running when the signal came, and they were answered with their outcome.
    const finishedAfterSignal = outcomes.filter(
      (o) => o.startedAt < signalledAt && o.answeredAt > signalledAt && o.status === 200,
    );
    expect(finishedAfterSignal.length).toBeGreaterThan(0);

    const stored = new Set(
      (await db.paymentRequest.findMany({ where: { merchantId: merchant.merchantId }, select: { externalReference: true } })).map(
        (row) => row.externalReference,
      ),
    );
    const created = outcomes.filter((o) => o.status === 200).map((o) => o.reference);
    const refused = outcomes.filter((o) => o.status === 503).map((o) => o.reference);
    expect(
      created.filter((reference) => !stored.has(reference)),
      "answered 200 but not stored",
    ).toEqual([]);
    expect(
      refused.filter((reference) => stored.has(reference)),
      "refused but stored",
    ).toEqual([]);
  });
});
