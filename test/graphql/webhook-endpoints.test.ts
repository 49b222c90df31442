import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, Prisma } from "../prisma.js";
import { ENDPOINTS_PER_MERCHANT } from "../../src/domain/webhooks/endpoints.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { buildMerchant, buildPayerKey, buildRequest, payer } from "../factories.js";
import { graphqlPost, graphqlPostTo } from "../fixtures.js";
import { createTestApp } from "../test-app.js";

/** An API whose endpoints may be on loopback (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true), as in development. */
const loopbackApp = createTestApp({ webhooks: { allowPrivateNetworks: true, testEventWaitMs: 100 } });

const call = (apiKey: string, query: string, variables: object = {}) => graphqlPostTo(loopbackApp, apiKey, query, variables);

const ENDPOINT = "id url eventTypes description enabled disabledReason disabledAt";
const RESULT = (fields: string) => `__typename ... on Error { code message } ${fields}`;

const CREATE = `mutation ($input: WebhookEndpointCreateInput!, $key: String) {
  webhookEndpointCreate(input: $input, idempotencyKey: $key) { ${RESULT(`... on WebhookEndpoint { ${ENDPOINT} }`)} } }`;
const UPDATE = `mutation ($input: WebhookEndpointUpdateInput!) {
  webhookEndpointUpdate(input: $input) { ${RESULT(`... on WebhookEndpoint { ${ENDPOINT} }`)} } }`;
const DELETE = `mutation ($id: ID!) { webhookEndpointDelete(id: $id) { ${RESULT("... on WebhookEndpoint { id }")} } }`;
const PING = `mutation ($id: ID!) { webhookEndpointPing(id: $id) { ${RESULT("... on WebhookTestResult { delivered outcome delivery { id type state } }")} } }`;
const RECOVER = `mutation ($input: WebhookEndpointRecoverInput!, $key: String) {
  webhookEndpointRecover(input: $input, idempotencyKey: $key) {
    ${RESULT("... on WebhookRecovery { endpointId queued } ... on RateLimitedError { retryAfterSeconds }")} } }`;
const REDELIVER = `mutation ($id: ID!) { webhookDeliveryRedeliver(id: $id) { ${RESULT("... on WebhookDelivery { id state }")} } }`;
const LIST = `{ webhookEndpoints { ${ENDPOINT} health { lastOutcome attemptsLastDay successShareLastDay failingSince } deliveries { id } } }`;
const ONE = `query ($id: ID!) { webhookEndpoint(id: $id) { ${ENDPOINT} } }`;

const hook = (n: number | string = 1) => `http://127.0.0.1:9/hooks/${n}`;

async function created(apiKey: string, input: object = {}) {
  const answer = await call(apiKey, CREATE, { input: { url: hook(), eventTypes: ["PAYMENT_COMPLETED"], ...input } });
  return answer.body.data!.webhookEndpointCreate as Record<string, any>;
}

const endpointsOf = (merchantId: string) => db.webhookEndpoint.findMany({ where: { merchantId } });

describe("webhook endpoints in GraphQL", () => {
  it("register, list, change, disable, enable and delete an endpoint", async () => {
    const { apiKey, merchantId } = await buildMerchant();
    const endpoint = await created(apiKey, {
      eventTypes: ["REQUEST_EXPIRED", "REFUND_COMPLETED", "REQUEST_EXPIRED"],
      description: "  ledger sync  ",
    });
    expect(endpoint).toMatchObject({
      __typename: "WebhookEndpoint",
      url: hook(),
      eventTypes: ["REQUEST_EXPIRED", "REFUND_COMPLETED"],
      description: "ledger sync",
      enabled: true,
      disabledReason: null,
    });

    const listed = (await call(apiKey, LIST)).body.data!.webhookEndpoints;
    expect(listed).toEqual([
      expect.objectContaining({
        id: endpoint.id,
        health: { lastOutcome: null, attemptsLastDay: 0, successShareLastDay: null, failingSince: null },
        deliveries: [],
      }),
    ]);

    const changed = await call(apiKey, UPDATE, { input: { id: endpoint.id, url: hook(2), eventTypes: ["PAYMENT_COMPLETED"] } });
    expect(changed.body.data!.webhookEndpointUpdate).toMatchObject({ url: hook(2), eventTypes: ["PAYMENT_COMPLETED"] });

    const disabled = await call(apiKey, UPDATE, { input: { id: endpoint.id, enabled: false } });
    expect(disabled.body.data!.webhookEndpointUpdate).toMatchObject({
      enabled: false,
      disabledReason: "disabled by its merchant",
    });
    expect(disabled.body.data!.webhookEndpointUpdate.disabledAt).toEqual(expect.any(String));
    // An empty note, as every optional text empty once trimmed, is not given: the note stays.
    const enabled = await call(apiKey, UPDATE, { input: { id: endpoint.id, enabled: true, description: "  " } });
    expect(enabled.body.data!.webhookEndpointUpdate).toMatchObject({
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      description: "ledger sync",
    });

    expect((await call(apiKey, DELETE, { id: endpoint.id })).body.data!.webhookEndpointDelete).toMatchObject({ id: endpoint.id });
    expect(await endpointsOf(merchantId)).toEqual([]);
    expect((await call(apiKey, DELETE, { id: endpoint.id })).body.data!.webhookEndpointDelete).toMatchObject({
      code: "WEBHOOK_ENDPOINT_NOT_FOUND",
    });
  });

  it("refuse a bad URL, a private address, a bad event type or note, and change nothing", async () => {
    const { apiKey, merchantId } = await buildMerchant();
    const refusals: [object, string][] = [
      [{ url: "ftp://127.0.0.1/x" }, "INVALID_ENDPOINT_URL"],
      [{ url: "not a url" }, "INVALID_ENDPOINT_URL"],
      [{ url: "   " }, "INVALID_ENDPOINT_URL"],
      [{ url: `http://127.0.0.1/${"x".repeat(2048)}` }, "INVALID_ENDPOINT_URL"],
      [{ url: "http://127.0.0.1/\u0000" }, "INVALID_ENDPOINT_URL"],
      [{ eventTypes: [] }, "INVALID_EVENT_TYPE"],
      [{ eventTypes: ["PING"] }, "INVALID_EVENT_TYPE"],
      [{ description: "x".repeat(257) }, "INVALID_DESCRIPTION"],
    ];
    for (const [input, code] of refusals) {
      const answer = await call(apiKey, CREATE, { input: { url: hook(), eventTypes: ["PAYMENT_COMPLETED"], ...input } });
      expect(answer.body.data?.webhookEndpointCreate, JSON.stringify(input)).toMatchObject({ code });
    }
    // Each JSON type a field does not take answers that field's code.
    for (const [input, code] of [
      [{ url: 5 }, "INVALID_ENDPOINT_URL"],
      [{ url: ["http://127.0.0.1/"] }, "INVALID_ENDPOINT_URL"],
      [{ url: null }, "INVALID_ENDPOINT_URL"],
      [{ eventTypes: 5 }, "INVALID_EVENT_TYPE"],
      [{ eventTypes: ["payment.completed"] }, "INVALID_EVENT_TYPE"],
      [{ eventTypes: [true] }, "INVALID_EVENT_TYPE"],
      [{ description: true }, "INVALID_DESCRIPTION"],
      [{ description: { text: "x" } }, "INVALID_DESCRIPTION"],
    ] as const) {
      const answer = await call(apiKey, CREATE, { input: { ...{ url: hook(), eventTypes: ["PAYMENT_COMPLETED"] }, ...input } });
      expect(answer.status, JSON.stringify(input)).toBe(400);
      expect(answer.body.errors?.[0]?.extensions?.code, JSON.stringify(input)).toBe(code);
    }
    // Without WEBHOOK_ALLOW_PRIVATE_NETWORKS (the default), as for a notifyUrl.
    for (const url of [
      "http://127.0.0.1:8080/h",
      "http://localhost/h",
      "http://localhost./h",
      "http://10.1.2.3/h",
      "http://[::1]/h",
      "http://[::ffff:192.168.0.1]/h",
      "http://169.254.169.254/latest",
    ]) {
      const answer = await graphqlPost(apiKey, CREATE, { input: { url, eventTypes: ["PAYMENT_COMPLETED"] } });
      expect(answer.body.data?.webhookEndpointCreate, url).toMatchObject({ code: "INVALID_ENDPOINT_URL" });
    }
    const endpoint = await created(apiKey);
    const bad = await call(apiKey, UPDATE, { input: { id: endpoint.id, url: "mailto:x@y", eventTypes: ["REQUEST_EXPIRED"] } });
    expect(bad.body.data!.webhookEndpointUpdate).toMatchObject({ code: "INVALID_ENDPOINT_URL" });
    expect(await endpointsOf(merchantId)).toMatchObject([{ url: hook(), eventTypes: ["PAYMENT_COMPLETED"] }]);
  });

  it(`allow ${ENDPOINTS_PER_MERCHANT} endpoints a merchant, even when they are registered at once`, async () => {
    const { apiKey, merchantId } = await buildMerchant();
    const answers = await Promise.all(
      Array.from({ length: ENDPOINTS_PER_MERCHANT + 4 }, (_, n) => created(apiKey, { url: hook(n) })),
    );
    expect(answers.filter((a) => a.__typename === "WebhookEndpoint")).toHaveLength(ENDPOINTS_PER_MERCHANT);
    expect(answers.filter((a) => a.code === "WEBHOOK_ENDPOINT_LIMIT_REACHED")).toHaveLength(4);
    expect(await endpointsOf(merchantId)).toHaveLength(ENDPOINTS_PER_MERCHANT);
  });

  it("never let one merchant see or touch another's endpoints, nor a payer key any", async () => {
    const [a, b] = await Promise.all([buildMerchant(), buildMerchant()]);
    const endpoint = await created(a.apiKey);
    const id = endpoint.id as string;
    const { request } = await buildRequest({ merchant: a });
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: id } });

    expect((await call(b.apiKey, LIST)).body.data!.webhookEndpoints).toEqual([]);
    expect((await call(b.apiKey, ONE, { id })).body.errors![0]!.extensions!.code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    const touches = [
      [UPDATE, { input: { id, enabled: false, url: hook(9) } }, "webhookEndpointUpdate"],
      [DELETE, { id }, "webhookEndpointDelete"],
      [PING, { id }, "webhookEndpointPing"],
      [RECOVER, { input: { id, since: new Date(0).toISOString() } }, "webhookEndpointRecover"],
      [REDELIVER, { id: delivery.id }, "webhookDeliveryRedeliver"],
    ] as const;
    for (const [document, variables, field] of touches) {
      expect((await call(b.apiKey, document, variables)).body.data![field], field).toMatchObject({
        code: field === "webhookDeliveryRedeliver" ? "WEBHOOK_EVENT_NOT_FOUND" : "WEBHOOK_ENDPOINT_NOT_FOUND",
      });
    }
    const payerKey = await buildPayerKey();
    expect((await call(payerKey, LIST)).body.errors![0]!.extensions!.code).toBe("FORBIDDEN");
    for (const [document, variables, field] of touches)
      expect((await call(payerKey, document, variables)).body.data![field], field).toMatchObject({ code: "FORBIDDEN" });
    expect(
      (await call(payerKey, CREATE, { input: { url: hook(), eventTypes: ["PAYMENT_COMPLETED"] } })).body.data!
        .webhookEndpointCreate,
    ).toMatchObject({ code: "FORBIDDEN" });

    expect(await endpointsOf(a.merchantId)).toMatchObject([{ id, url: hook(), enabled: true }]);
    expect(await db.delivery.findMany({ where: { endpointId: id } })).toEqual([delivery]);
  });

  it("price an endpoint's delivery log by the page it asks for", async () => {
    const { apiKey } = await buildMerchant();
    const log = (first: number) =>
      `{ ${Array.from({ length: 4 }, (_, i) => `a${i}: webhookEndpoints { deliveries(first: ${first}) { attempts { number } } }`).join(" ")} }`;
    const refused = await call(apiKey, log(200));
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0]!.message).toMatch(/^Query Cost limit of \d+ exceeded/);
    const small = await call(apiKey, log(5));
    expect(small.status).toBe(200);
    expect(small.body.data!.a0).toEqual([]);
  });

  it("answer a test event the worker has not made in time as not yet attempted, leaving it pending", async () => {
    const { apiKey } = await buildMerchant();
    const endpoint = await created(apiKey);
    const answer = (await call(apiKey, PING, { id: endpoint.id })).body.data!.webhookEndpointPing;
    expect(answer).toMatchObject({ delivered: false, outcome: null, delivery: { type: "PING", state: "PENDING" } });
  });

  it("refuse to redeliver a test event with a code of its own, and change nothing", async () => {
    const [{ apiKey }, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const endpoint = await created(apiKey);
    const ping = (await call(apiKey, PING, { id: endpoint.id })).body.data!.webhookEndpointPing;
    const before = await db.delivery.findUniqueOrThrow({ where: { id: ping.delivery.id } });
    expect(before.type).toBe("PING");

    const refused = (await call(apiKey, REDELIVER, { id: ping.delivery.id })).body.data!.webhookDeliveryRedeliver;
    expect(refused).toEqual({
      __typename: "StateConflictError",
      code: "WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE",
      message: "A test event is not redelivered: send another with webhookEndpointPing.",
    });
    // Another merchant's test event is one it cannot see.
    expect((await call(other.apiKey, REDELIVER, { id: ping.delivery.id })).body.data!.webhookDeliveryRedeliver).toMatchObject({
      code: "WEBHOOK_EVENT_NOT_FOUND",
    });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: ping.delivery.id } })).toEqual(before);
  });

  it("answer a registration retried under its key after a crash with the endpoint it made, and make no second", async () => {
    const { apiKey, merchantId } = await buildMerchant();
    const key = `create-${merchantId}`;
    const input = { url: hook(), eventTypes: ["PAYMENT_COMPLETED"] };
    const first = (await call(apiKey, CREATE, { input, key })).body.data!.webhookEndpointCreate;
    // What a process that stopped after the commit leaves: the claim with the entity, and no outcome.
    await db.idempotencyKey.updateMany({ where: { key }, data: { outcome: Prisma.DbNull } });
    const retry = (await call(apiKey, CREATE, { input, key })).body.data!.webhookEndpointCreate;
    expect(retry).toMatchObject({ __typename: "WebhookEndpoint", id: first.id });
    expect(await endpointsOf(merchantId)).toHaveLength(1);
  });

  it("leave the minute's recovery unused by one that queues nothing, and let one of several at once queue", async () => {
    const merchant = await buildMerchant();
    const { apiKey } = merchant;
    const endpoint = await created(apiKey);
    const recover = async () =>
      (await call(apiKey, RECOVER, { input: { id: endpoint.id, since: new Date(Date.now() - 3_600_000).toISOString() } })).body
        .data!.webhookEndpointRecover;
    // Nothing to send: each answers 0, and none counts against the next.
    for (let n = 0; n < 3; n++)
      expect(await recover()).toEqual({ __typename: "WebhookRecovery", endpointId: endpoint.id, queued: 0 });
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ recoveredAt: null });

    // Two payments held while it was disabled: of four recoveries at once, one queues both, the others wait their minute.
    await call(apiKey, UPDATE, { input: { id: endpoint.id, enabled: false } });
    for (let n = 0; n < 2; n++) {
      const { request } = await buildRequest({ merchant });
      await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    }
    await call(apiKey, UPDATE, { input: { id: endpoint.id, enabled: true } });
    // What a recovery would queue, asked first: the two held, and none made before the time asked.
    const recoverable = async (since: Date) =>
      (
        await call(apiKey, `query ($id: ID!, $since: DateTime!) { webhookEndpoint(id: $id) { recoverable(since: $since) } }`, {
          id: endpoint.id,
          since: since.toISOString(),
        })
      ).body.data!.webhookEndpoint.recoverable;
    expect(await recoverable(new Date(Date.now() - 3_600_000))).toBe(2);
    expect(await recoverable(new Date(Date.now() + 60_000))).toBe(0);
    expect(await db.delivery.findMany({ where: { endpointId: endpoint.id, state: "HELD" } })).toHaveLength(2);
    const answers = await Promise.all(Array.from({ length: 4 }, recover));
    expect(answers.filter((a) => a.__typename === "WebhookRecovery")).toEqual([
      { __typename: "WebhookRecovery", endpointId: endpoint.id, queued: 2 },
    ]);
    expect(answers.filter((a) => a.code === "RATE_LIMIT_EXCEEDED")).toHaveLength(3);
    expect(await recover()).toMatchObject({ __typename: "RateLimitedError", code: "RATE_LIMIT_EXCEEDED" });
    expect(await db.delivery.findMany({ where: { endpointId: endpoint.id } })).toMatchObject([
      { state: "PENDING" },
      { state: "PENDING" },
    ]);
    // Queued and not yet tried again: nothing is left to recover.
    expect(await recoverable(new Date(Date.now() - 3_600_000))).toBe(0);
  });

  it("answer a recovery retried under the same key with its first count, and refuse another within the minute", async () => {
    const merchant = await buildMerchant();
    const { apiKey } = merchant;
    const endpoint = await created(apiKey, { enabled: false });
    // A payment while it is disabled: its delivery is held, for a recovery to send.
    const { request } = await buildRequest({ merchant });
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    await call(apiKey, UPDATE, { input: { id: endpoint.id, enabled: true } });
    const input = { id: endpoint.id, since: new Date(Date.now() - 3_600_000).toISOString() };
    const first = (await call(apiKey, RECOVER, { input, key: "recover-1" })).body.data!.webhookEndpointRecover;
    expect(first).toEqual({ __typename: "WebhookRecovery", endpointId: endpoint.id, queued: 1 });
    const queued = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(queued.state).toBe("PENDING");
    const retried = (await call(apiKey, RECOVER, { input, key: "recover-1" })).body.data!.webhookEndpointRecover;
    expect(retried).toEqual(first);
    // The retry queued nothing more: the delivery is as the first call left it.
    expect(await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toEqual(queued);
    const other = (await call(apiKey, RECOVER, { input, key: "recover-2" })).body.data!.webhookEndpointRecover;
    expect(other).toMatchObject({ __typename: "RateLimitedError", code: "RATE_LIMIT_EXCEEDED" });
    expect(other.retryAfterSeconds).toBeGreaterThan(50);
    expect(other.retryAfterSeconds).toBeLessThanOrEqual(60);
    const otherInput = (await call(apiKey, RECOVER, { input: { ...input, since: new Date(0).toISOString() }, key: "recover-1" }))
      .body.data!.webhookEndpointRecover;
    expect(otherInput).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
  });

  it("record the endpoint a creation or a recovery made on its idempotency key, in the write's own statement", async () => {
    const { apiKey } = await buildMerchant();
    const [createKey, recoverKey] = [randomUUID(), randomUUID()];
    const input = { url: hook(), eventTypes: ["PAYMENT_COMPLETED"] };
    const endpoint = (await call(apiKey, CREATE, { input, key: createKey })).body.data!.webhookEndpointCreate;
    expect(endpoint).toMatchObject({ __typename: "WebhookEndpoint", url: hook() });
    expect(await db.idempotencyKey.findFirstOrThrow({ where: { key: createKey } })).toMatchObject({ entityId: endpoint.id });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const recovered = (await call(apiKey, RECOVER, { input: { id: endpoint.id, since }, key: recoverKey })).body.data!
      .webhookEndpointRecover;
    expect(recovered).toEqual({ __typename: "WebhookRecovery", endpointId: endpoint.id, queued: 0 });
    expect(await db.idempotencyKey.findFirstOrThrow({ where: { key: recoverKey } })).toMatchObject({ entityId: endpoint.id });
  });
});
