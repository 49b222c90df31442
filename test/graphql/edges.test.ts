import { describe, expect, it } from "vitest";
import { app } from "../fixtures.js";
import { buildMerchant } from "../factories.js";

/** A raw GraphQL call, for input no typed document would let through. */
async function graphql(apiKey: string, query: string, variables?: Record<string, unknown>) {
  const response = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
}

describe("GraphQL bad input", () => {
  it("reports bad list filters and cursors as typed errors, never masked", async () => {
    const merchant = await buildMerchant();
    const list = (args: string) => graphql(merchant.apiKey, `{ paymentRequests(first: 5${args}) { edges { node { id } } } }`);

    // A clientId that names nothing matches nothing.
    expect(await list(`, filter: { clientId: "nope" }`)).toEqual({ data: { paymentRequests: { edges: [] } } });
    const forged = Buffer.from("GPC:S:not-a-uuid").toString("base64");
    for (const [args, code] of [
      [`, after: "${forged}"`, "BAD_REQUEST"],
      [`, filter: { createdFrom: "+275760-09-13T00:00:00.000Z" }`, "BAD_REQUEST"],
      [`, filter: { externalReference: "a\\u0000b" }`, "BAD_REQUEST"],
    ] as const) {
      const { errors } = await list(args);
      expect({ args, code: errors?.[0]?.extensions?.code }).toEqual({ args, code });
      expect(errors?.[0]?.message).not.toBe("Unexpected error.");
    }
  });

  it("refuses float literals for an Amount, never rounding them", async () => {
    const merchant = await buildMerchant();
    for (const literal of ["300.0", "1e3", "4503599627370496.5"]) {
      const { data, errors } = await graphql(
        merchant.apiKey,
        `mutation { requestCreate(input: { merchantId: "${merchant.merchantId}", asset: "NZD", amount: ${literal} }) { ... on PaymentRequest { id } } }`,
      );
      expect({ literal, data, code: errors?.[0]?.extensions?.code }).toEqual({
        literal,
        data: undefined,
        code: "INVALID_AMOUNT",
      });
    }
  });
});

describe("paymentExpirySeconds in GraphQL", () => {
  const create = `mutation ($input: RequestCreateInput!) {
    requestCreate(input: $input) { ... on PaymentRequest { paymentExpirySeconds } ... on Error { code } }
  }`;

  it("takes a JSON integer or a string of digits in variables, and an integer or digit-string literal, as REST does", async () => {
    const merchant = await buildMerchant();
    const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 300 };
    for (const given of [1800, "1800"]) {
      const { data, errors } = await graphql(merchant.apiKey, create, { input: { ...input, paymentExpirySeconds: given } });
      expect({ given, errors, data }).toEqual({
        given,
        errors: undefined,
        data: { requestCreate: { paymentExpirySeconds: 1800 } },
      });
    }
    for (const literal of ["1800", '"1800"']) {
      const { data } = await graphql(
        merchant.apiKey,
        `mutation { requestCreate(input: { merchantId: "${merchant.merchantId}", asset: "NZD", amount: 300, paymentExpirySeconds: ${literal} }) { ... on PaymentRequest { paymentExpirySeconds } } }`,
      );
      expect({ literal, data }).toEqual({ literal, data: { requestCreate: { paymentExpirySeconds: 1800 } } });
    }
  });

  it("refuses anything else as INVALID_PAYMENT_EXPIRY_SECONDS, never rounding", async () => {
    const merchant = await buildMerchant();
    const input = { merchantId: merchant.merchantId, asset: "NZD", amount: 300 };
    for (const given of [true, [1800], { s: 1 }, " 1800", "18e2", "1800.0", 0, 86400]) {
      const { data, errors } = await graphql(merchant.apiKey, create, { input: { ...input, paymentExpirySeconds: given } });
      const code = errors?.[0]?.extensions?.code ?? (data as { requestCreate?: { code?: string } }).requestCreate?.code;
      expect({ given, code }).toEqual({ given, code: "INVALID_PAYMENT_EXPIRY_SECONDS" });
    }
    for (const literal of ["1800.0", "18e2", "true"]) {
      const { data, errors } = await graphql(
        merchant.apiKey,
        `mutation { requestCreate(input: { merchantId: "${merchant.merchantId}", asset: "NZD", amount: 300, paymentExpirySeconds: ${literal} }) { ... on PaymentRequest { id } } }`,
      );
      expect({ literal, data, code: errors?.[0]?.extensions?.code }).toEqual({
        literal,
        data: undefined,
        code: "INVALID_PAYMENT_EXPIRY_SECONDS",
      });
    }
  });
});

describe("amounts in JSON", () => {
  it("refuses exponent and fractional JSON numbers on both transports, never rounding them", async () => {
    const merchant = await buildMerchant();
    const texts = ["1e3", "3E2", "300.0", "30000e-2", "300.00000000000000001", "4503599627370496.5", "9007199254740993"];
    for (const text of texts) {
      const response = await app.fetch(
        new Request("http://test/api/requests.create", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
          body: `{"merchantId":"${merchant.merchantId}","asset":"NZD","amount":${text}}`,
        }),
      );
      expect({ text, status: response.status, body: await response.json() }).toMatchObject({
        text,
        status: 400,
        body: { message: "INVALID_AMOUNT" },
      });
      const graphqlResponse = await app.fetch(
        new Request("http://test/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
          body: `{"query":"mutation($i: RequestCreateInput!) { requestCreate(input: $i) { ... on PaymentRequest { id } ... on Error { code } } }","variables":{"i":{"merchantId":"${merchant.merchantId}","asset":"NZD","amount":${text}}}}`,
        }),
      );
      // A variable not of the JSON type its parameter takes refuses the whole call, as REST does.
      expect({ text, status: graphqlResponse.status, body: await graphqlResponse.json() }).toMatchObject({
        text,
        status: 400,
        body: { errors: [{ extensions: { code: "INVALID_AMOUNT" } }] },
      });
    }
    // Plain integers and digit strings still work on both.
    const ok = await graphql(
      merchant.apiKey,
      `
        mutation ($i: RequestCreateInput!) {
          requestCreate(input: $i) {
            ... on PaymentRequest {
              denomination {
                amount
              }
            }
          }
        }
      `,
      { i: { merchantId: merchant.merchantId, asset: "NZD", amount: 4503599627370496 } },
    );
    expect(ok).toEqual({ data: { requestCreate: { denomination: { amount: 4503599627370496 } } } });
  });
});
