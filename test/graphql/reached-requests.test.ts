import { describe, expect, it } from "vitest";
import { payRequest } from "../../src/domain/requests/pay.js";
import { gql } from "../fixtures.js";
import { buildMerchant, buildRequest, payer } from "../factories.js";
import { graphql } from "../gql/index.js";

graphql(`
  fragment ReachedRequest on PaymentRequest {
    id
    status
    payments {
      ledger
      amount
    }
    paidBy {
      id
    }
  }
`);

const ReachedRequests = graphql(`
  query ReachedRequests($transactionId: ID!, $requestId: ID!) {
    transaction(id: $transactionId) {
      request {
        ...ReachedRequest
      }
    }
    paymentRequest(id: $requestId) {
      webhookEvents {
        request {
          ...ReachedRequest
        }
      }
    }
    transactions(first: 10) {
      edges {
        node {
          id
          request {
            ...ReachedRequest
          }
        }
      }
    }
  }
`);

const OwnRequest = graphql(`
  query OwnRequest($id: ID!) {
    paymentRequest(id: $id) {
      ...ReachedRequest
    }
  }
`);

describe("a payment request reached from a transaction or a webhook event", () => {
  it("reads its payment options and the purchase that paid it, as when read by its id", async () => {
    const merchant = await buildMerchant();
    const paid = await Promise.all(
      [0, 1].map(async () => {
        const { request } = await buildRequest({ merchant, notifyUrl: "http://127.0.0.1:9/hooks" });
        const answer = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
        return { requestId: request.id, purchaseId: answer.purchase!.id };
      }),
    );
    const [first] = paid;
    const asRead = async (id: string) => (await gql(OwnRequest, { id }, merchant.apiKey)).data!.paymentRequest;
    const expected = await asRead(first!.requestId);
    expect(expected.payments.length).toBeGreaterThan(0);
    expect(expected.paidBy).toEqual({ id: first!.purchaseId });

    const answer = await gql(ReachedRequests, { transactionId: first!.purchaseId, requestId: first!.requestId }, merchant.apiKey);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.transaction.request).toEqual(expected);
    expect(answer.data!.paymentRequest.webhookEvents.map((event) => event.request)).toEqual([expected]);
    // Each transaction of a page reaches its own request.
    const nodes = answer.data!.transactions.edges.map((edge) => edge.node);
    expect(nodes.map((node) => [node.id, node.request.id]).sort()).toEqual(
      paid.map(({ purchaseId, requestId }) => [purchaseId, requestId]).sort(),
    );
    for (const node of nodes) expect(node.request).toEqual(await asRead(node.request.id));
  });
});
