import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { app } from "../fixtures.js";
import { buildRequest, payer, type TestMerchant } from "../factories.js";
import {
  buildOperations,
  codeOf,
  graphqlBodies,
  graphqlBody,
  holdsIllFormedText,
  illFormedText,
  snapshot as snapshotOf,
  wrongJson,
  type Operation,
} from "../parameters.js";

/** Operations a dashboard or a wallet sends, each taking the generated values as variables. */
const OPERATIONS = {
  create: `mutation($a: Amount!, $s: String!, $m: ID!, $d: String, $r: String, $u: String, $c: ID) {
    requestCreate(input: { merchantId: $m, asset: $s, amount: $a, description: $d, externalReference: $r, notifyUrl: $u, clientId: $c }) {
      ... on PaymentRequest { id } ... on Error { code } } }`,
  read: `query($i: ID, $c: String) { paymentRequest(id: $i, requestCode: $c) { id status } }`,
  list: `query($c: ID, $r: String, $f: DateTime, $after: String) {
    paymentRequests(first: 5, after: $after, filter: { clientId: $c, externalReference: $r, createdFrom: $f }) { edges { node { id } } } }`,
  refund: `mutation($t: ID!, $a: Amount!, $r: String) {
    transactionRefund(input: { transactionId: $t, amount: $a, externalReference: $r }) { ... on Transaction { id } ... on Error { code } } }`,
} as const;

let merchant: TestMerchant;
let known: string[];
/** Each operation's parameters, valid calls of a merchant of their own, for the typed property. */
let typed: { merchant: TestMerchant; operations: Operation[] };

beforeAll(async () => {
  typed = await buildOperations();
  const { merchant: m, request } = await buildRequest();
  const paid = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
  merchant = m;
  known = [m.merchantId, request.id, request.requestCode, paid.purchase!.id, "NZD", "2026-01-01T00:00:00.000Z"];
});

const value = () =>
  fc.oneof(
    fc.constantFrom(...known),
    fc.string({ maxLength: 30 }),
    illFormedText(),
    fc.integer(),
    fc.boolean(),
    fc.double(),
    fc.constantFrom(
      "",
      "1e3",
      "300.0",
      "+275760-09-13T00:00:00.000Z",
      "-000001-01-01T00:00:00Z",
      Buffer.from("GPC:S:x").toString("base64"),
    ),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
  );

/** Variables the operations declare as String or ID. */
const TEXT_VARIABLES = new Set(["s", "m", "d", "r", "u", "c", "i", "after", "t"]);

/**
 * Whether a call must be refused for its variables' types alone: a String or ID variable the
 * operation uses holds another JSON type, or text with U+0000 or an unpaired surrogate.
 */
const holdsWrongText = (operation: keyof typeof OPERATIONS, variables: Record<string, unknown>) =>
  Object.entries(variables).some(
    ([name, value]) =>
      TEXT_VARIABLES.has(name) &&
      new RegExp(`\\$${name}\\b`).test(OPERATIONS[operation]) &&
      value !== null &&
      (typeof value !== "string" || holdsIllFormedText(value)),
  );

const call = () =>
  fc.record({
    operation: fc.constantFrom(...(Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[])),
    variables: fc.dictionary(fc.constantFrom("a", "s", "m", "d", "r", "u", "c", "i", "f", "after", "t"), value(), { maxKeys: 6 }),
  });

/** This file's rows a refused call must leave as they were. */
const snapshot = async () => ({
  requests: await db.paymentRequest.count({ where: { merchantId: merchant.merchantId } }),
  transactions: await db.transaction.count({ where: { merchantId: merchant.merchantId } }),
});

describe("GraphQL with generated variables", () => {
  it("never answers 5xx or a masked error, and a refused call changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(call(), async ({ operation, variables: generated }) => {
        // As JSON carries them: a non-finite number (fc.double) arrives as null.
        const variables = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
        const before = await snapshot();
        const response = await app.fetch(
          new Request("http://test/graphql", {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
            body: JSON.stringify({ query: OPERATIONS[operation], variables }),
          }),
        );
        const body = (await response.json()) as { data?: Record<string, { id?: string } | null>; errors?: { message: string }[] };
        expect(response.status, JSON.stringify(body)).toBeLessThan(500);
        for (const error of body.errors ?? []) expect(error.message, JSON.stringify(variables)).not.toBe("Unexpected error.");
        const wrote = Object.values(body.data ?? {}).some(
          (field) => field && "id" in field && operation !== "read" && operation !== "list",
        );
        if (!wrote) expect(await snapshot()).toEqual(before);
        if (holdsWrongText(operation, variables)) {
          const refused =
            Boolean(body.errors?.length) || Object.values(body.data ?? {}).some((field) => field && "code" in field);
          expect({ variables, refused }).toEqual({ variables, refused: true });
        }
      }),
      { numRuns: 200, ...(process.env["FUZZ_SEED"] ? { seed: Number(process.env["FUZZ_SEED"]) } : {}) },
    );
  });

  it("refuses a valid call given one parameter of the wrong JSON type or with ill-formed text with that parameter's code, changing nothing", async () => {
    const cases = typed.operations.flatMap((operation) =>
      operation.params.filter((param) => param.graphql).map((param) => ({ operation, param })),
    );
    const before = await snapshotOf(typed.merchant);
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...cases)
          .chain(({ operation, param }) => wrongJson(param, "graphql").map((value) => ({ operation, param, value }))),
        async ({ operation, param, value }) => {
          for (const body of graphqlBodies(operation, param, value)) {
            const answer = await graphqlBody(typed.merchant.apiKey, body);
            expect({ body, code: codeOf(answer, operation.graphql.field) }).toEqual({ body, code: param.code });
            expect(answer.status).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 300, ...(process.env["FUZZ_SEED"] ? { seed: Number(process.env["FUZZ_SEED"]) } : {}) },
    );
    expect(await snapshotOf(typed.merchant)).toEqual(before);
  });
});
