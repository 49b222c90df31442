import { describe, expect, it } from "vitest";
import { isCorrect } from "../../bench/correct-answer.js";
import { app } from "../fixtures.js";
import { buildMerchant } from "../factories.js";

/** The service's real answer to a call, as the bench receives it (status and text). */
async function answer(path: string, apiKey: string, body: object) {
  const response = await app.fetch(
    new Request(`http://test${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, text: await response.text() };
}

const createDocument = (selection: string) =>
  `mutation($m: ID!, $amount: Amount!) { requestCreate(input: { merchantId: $m, asset: "NZD", amount: $amount }) { ${selection} } }`;

describe("what the bench counts", () => {
  it("counts a REST 200 and a GraphQL create that made a request", async () => {
    const merchant = await buildMerchant();
    const rest = await answer("/api/requests.create", merchant.apiKey, {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: 300,
    });
    expect(isCorrect(rest.status, rest.text, "/api/requests.create")).toBe(true);
    const gql = await answer("/graphql", merchant.apiKey, {
      query: createDocument("... on PaymentRequest { id } ... on Error { code }"),
      variables: { m: merchant.merchantId, amount: 300 },
    });
    expect(isCorrect(gql.status, gql.text, "/graphql")).toBe(true);
  });

  it("refuses a REST error answer", async () => {
    const merchant = await buildMerchant();
    const rest = await answer("/api/requests.create", merchant.apiKey, {
      merchantId: merchant.merchantId,
      asset: "NZD",
      amount: 0,
    });
    expect(rest.status).toBe(400);
    expect(isCorrect(rest.status, rest.text, "/api/requests.create")).toBe(false);
    const unknownKey = await answer("/api/requests.info", "mk_not-a-key", { requestId: "x" });
    expect(isCorrect(unknownKey.status, unknownKey.text, "/api/requests.info")).toBe(false);
  });

  it("refuses a GraphQL error result, whether or not the selection asks for its code", async () => {
    const merchant = await buildMerchant();
    for (const selection of ["... on PaymentRequest { id } ... on Error { code }", "... on PaymentRequest { id }"]) {
      const refused = await answer("/graphql", merchant.apiKey, {
        query: createDocument(selection),
        variables: { m: merchant.merchantId, amount: "0" },
      });
      expect(refused.status).toBe(200);
      expect([selection, isCorrect(refused.status, refused.text, "/graphql")]).toEqual([selection, false]);
    }
  });

  it("refuses a GraphQL answer with errors, and a 429", async () => {
    const merchant = await buildMerchant();
    const failed = await answer("/graphql", merchant.apiKey, {
      query: `query($id: ID) { paymentRequest(id: $id) { id } }`,
      variables: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(failed.text).toContain('"errors"');
    expect(isCorrect(failed.status, failed.text, "/graphql")).toBe(false);
    expect(isCorrect(429, '{"data":{"paymentRequest":{"id":"x"}}}', "/graphql")).toBe(false);
  });
});
