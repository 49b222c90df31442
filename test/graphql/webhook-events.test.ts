import { describe, expect, it } from "vitest";
import { payRequest } from "../../src/domain/requests/pay.js";
import { rotateSigningKey } from "../../src/domain/webhooks/key-files.js";
import { testEnv } from "../../vitest.config.js";
import { app, gql } from "../fixtures.js";
import { buildMerchant, buildRequest, payer } from "../factories.js";
import { graphql } from "../gql/index.js";
import { holdingSigningKeys } from "../signing-key-lock.js";

const RequestEvents = graphql(`
  query RequestEvents($id: ID!) {
    paymentRequest(id: $id) {
      webhookEvents {
        id
        url
        state
        attemptCount
        transaction {
          transactionType
        }
        attempts {
          number
        }
      }
    }
  }
`);

const FailedEvents = graphql(`
  query FailedEvents($states: [WebhookEventState!]) {
    webhookEvents(states: $states) {
      id
      state
    }
  }
`);

const Redeliver = graphql(`
  mutation Redeliver($eventId: ID!) {
    webhookEventRedeliver(eventId: $eventId) {
      __typename
      ... on WebhookEvent {
        id
        state
        nextAttemptAt
      }
      ... on Error {
        code
      }
    }
  }
`);

describe("webhook events in GraphQL", () => {
  it("shows a merchant the notifications of its requests, and only its own", async () => {
    const { merchant, request } = await buildRequest({ notifyUrl: "http://127.0.0.1:9/hooks" });
    await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });

    const events = (await gql(RequestEvents, { id: request.id }, merchant.apiKey)).data!.paymentRequest.webhookEvents;
    expect(events).toMatchObject([
      {
        url: "http://127.0.0.1:9/hooks",
        state: "PENDING",
        attemptCount: 0,
        transaction: { transactionType: "PURCHASE" },
        attempts: [],
      },
    ]);
    const pending = (await gql(FailedEvents, { states: ["PENDING"] }, merchant.apiKey)).data!.webhookEvents;
    expect(pending.map((e) => e.id)).toEqual([events[0]!.id]);

    const other = await buildMerchant();
    expect((await gql(FailedEvents, {}, other.apiKey)).data!.webhookEvents).toEqual([]);
    const foreign = await gql(Redeliver, { eventId: events[0]!.id }, other.apiKey);
    expect(foreign.data!.webhookEventRedeliver).toMatchObject({ __typename: "NotFoundError", code: "WEBHOOK_EVENT_NOT_FOUND" });

    const redelivered = await gql(Redeliver, { eventId: events[0]!.id }, merchant.apiKey);
    expect(redelivered.data!.webhookEventRedeliver).toMatchObject({ __typename: "WebhookEvent", state: "PENDING" });
  });
});

describe("GET /.well-known/jwks.json", () => {
  it("publishes the current public key with cache headers and no private part", async () => {
    // No other file's rotation may land between this one and the read of the JWKS.
    const { kid, response } = await holdingSigningKeys(async () => {
      const { kid } = await rotateSigningKey(testEnv.WEBHOOK_SIGNING_KEY_DIR, 60_000);
      return { kid, response: await app.fetch(new Request("http://test/.well-known/jwks.json")) };
    });
    expect(response.headers.get("cache-control")).toContain("max-age=");
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys[0]).toMatchObject({ kid, kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(keys.every((key) => !("d" in key))).toBe(true);
  });
});
