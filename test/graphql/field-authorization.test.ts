import { getNamedType, isObjectType, type GraphQLObjectType } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { refundTransaction } from "../../src/domain/transactions/refund.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { schema } from "../../src/graphql/schema.js";
import { app, rest } from "../fixtures.js";
import { buildMerchant, buildPayerKey, buildRequest, payer, type TestMerchant } from "../factories.js";

/**
 * The contract's payer view (revisions of 2026-11-22 and, for the pay page's shortCode and payUrl,
 * 2026-11-23), written out here rather than imported, so
 * that the code and the contract are checked against each other. Every other field of these
 * types, including any field added later, must be refused to payer keys.
 */
const PAYER_MAY_READ: Record<string, string[]> = {
  PaymentRequest: [
    "id",
    "requestCode",
    "shortCode",
    "payUrl",
    "merchantId",
    "status",
    "denomination",
    "payments",
    "description",
    "expiresAt",
    "createdAt",
    "updatedAt",
    "paidBy",
  ],
  Transaction: ["id", "amount", "ledger", "createdAt"],
};
/** Types that hang off payer-readable fields; a payer may read all of theirs. */
const PAYER_READS_WHOLLY = ["PaymentOption", "Denomination"];

const type = (name: string) => schema.getType(name) as GraphQLObjectType;
const selection = (t: GraphQLObjectType, field: string) => {
  const named = getNamedType(t.getFields()[field]!.type);
  return isObjectType(named) ? `${field} { __typename }` : field;
};

type Body = { data?: Record<string, unknown> | null; errors?: { path?: (string | number)[]; extensions?: { code?: string } }[] };
async function query(apiKey: string, text: string, variables: object): Promise<Body> {
  const response = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ query: text, variables }),
    }),
  );
  return (await response.json()) as Body;
}

let merchant: TestMerchant;
let stranger: TestMerchant;
let payerKey: string;
let requestId: string;

beforeAll(async () => {
  [merchant, stranger, payerKey] = await Promise.all([buildMerchant(), buildMerchant(), buildPayerKey()]);
  const { request } = await buildRequest({
    merchant,
    notifyUrl: "http://127.0.0.1:9/hook?token=s3cret",
    externalReference: "ord-1",
  });
  const paid = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
  await refundTransaction(merchant.ctx, { transactionId: paid.purchase!.id, amount: 100, externalReference: "r-1" });
  requestId = request.id;
});

/** Reads one field of the type at `path` under paymentRequest(id), e.g. ["paidBy"] for Transaction. */
const read = (apiKey: string, path: string[], typeName: string, field: string) =>
  query(
    apiKey,
    `query($id: ID) { paymentRequest(id: $id) { ${path.map((p) => `${p} { `).join("")}${selection(type(typeName), field)}${" }".repeat(path.length)} } }`,
    { id: requestId },
  );

/** Where each walked type is reached from a payment request. */
const REACHED_AT: Record<string, string[]> = {
  PaymentRequest: [],
  Transaction: ["paidBy"],
  PaymentOption: ["payments"],
  Denomination: ["denomination"],
  WebhookEvent: ["webhookEvents"],
  WebhookAttempt: ["webhookEvents", "attempts"],
  Activity: ["activities"],
};

describe("field-level authorization on GraphQL", () => {
  for (const [typeName, path] of Object.entries(REACHED_AT)) {
    it(`lets the merchant read every field of ${typeName}`, async () => {
      for (const field of Object.keys(type(typeName).getFields())) {
        const body = await read(merchant.apiKey, path, typeName, field);
        expect(body.errors, `${typeName}.${field}`).toBeUndefined();
      }
    });
  }

  for (const typeName of ["PaymentRequest", "Transaction", ...PAYER_READS_WHOLLY]) {
    it(`gives a payer key only the payer view of ${typeName}, FORBIDDEN for the rest`, async () => {
      for (const field of Object.keys(type(typeName).getFields())) {
        const body = await read(payerKey, REACHED_AT[typeName]!, typeName, field);
        const allowed = PAYER_READS_WHOLLY.includes(typeName) || PAYER_MAY_READ[typeName]!.includes(field);
        if (allowed) expect(body.errors, `${typeName}.${field}`).toBeUndefined();
        else expect(body.errors?.[0]?.extensions?.code, `${typeName}.${field}`).toBe("FORBIDDEN");
      }
    });
  }

  it("shows another merchant nothing of the request", async () => {
    for (const field of Object.keys(type("PaymentRequest").getFields())) {
      const body = await read(stranger.apiKey, [], "PaymentRequest", field);
      expect(body.errors?.[0]?.extensions?.code, field).toBe("REQUEST_NOT_FOUND");
    }
  });
});

describe("field-level authorization on REST", () => {
  it("omits the merchant's fields from what a payer key reads", async () => {
    const asMerchant = await rest("requests.info", { apiKey: merchant.apiKey, query: { requestId } });
    const asPayer = await rest("requests.info", { apiKey: payerKey, query: { requestId } });
    expect(asMerchant.body).toMatchObject({ notifyUrl: expect.any(String), externalReference: "ord-1" });
    expect(Object.keys(asMerchant.body.paidBy)).toEqual(
      expect.arrayContaining(["transactionId", "amount", "ledger", "paidAt", "authCode", "responseCode", "settlementDate"]),
    );
    expect(Object.keys(asPayer.body).sort()).toEqual(
      [
        "createdAt",
        "denomination",
        "description",
        "expiresAt",
        "merchantId",
        "paidBy",
        "payments",
        "qrCode",
        "requestCode",
        "requestId",
        "shortCode",
        "status",
        "updatedAt",
      ]
        .filter((key) => key in asMerchant.body)
        .sort(),
    );
    expect(Object.keys(asPayer.body.paidBy).sort()).toEqual(["amount", "ledger", "paidAt", "transactionId"]);
  });
});
