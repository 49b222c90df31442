import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { app, rest } from "../fixtures.js";
import { buildRequest, payer, type TestMerchant } from "../factories.js";

/** A parameter: its REST name, its GraphQL name and type where GraphQL takes it, and its code. */
interface Param {
  name: string;
  code: string;
  number?: boolean;
  required?: boolean;
  /** GraphQL's name and type; none where only REST takes it (paymentAuthorization). */
  graphql?: { name: string; type: string };
}

interface Operation {
  rest?: string;
  /** The GraphQL root field, and the input type when it takes one `input`. */
  graphql: { field: string; mutation?: boolean; input?: string; select: string };
  /** Parameters that make the call valid; each test gives one of `params` a wrong value instead. */
  base: Record<string, unknown>;
  /** The same in GraphQL's names, where they differ. */
  graphqlBase?: Record<string, unknown>;
  params: Param[];
}

const text = (name: string, code: string, type: string, more: Partial<Param> = {}): Param => ({
  name,
  code,
  required: type.endsWith("!"),
  graphql: { name, type },
  ...more,
});

/** JSON values of the wrong type for a text parameter, as written in a body. */
const NOT_TEXT = ["1.5", "1e3", "15", "-0", "true", "false", "[]", '["x"]', "{}", '{"x":"y"}'];
/** JSON values of the wrong type for an amount (a JSON integer or a digit string). */
const NOT_WHOLE = ["1.5", "1e3", "300.0", "true", "[]", "[300]", "{}", '{"amount":300}'];
/** Unpaired UTF-16 surrogates, as JSON escapes. */
const SURROGATES = ['"x\\ud800"', '"\\udc00"', '"a\\udfffb"', '"\\ud800\\ud800\\udc00"', '"\\udc00\\ud800"'];

const wrongValues = (param: Param) => [
  ...(param.number ? NOT_WHOLE : NOT_TEXT),
  ...SURROGATES,
  ...(param.required ? ["null"] : []),
];

let merchant: TestMerchant;
let operations: Operation[];

beforeAll(async () => {
  const built = await buildRequest();
  const paid = await buildRequest({ merchant: built.merchant });
  const purchase = await payRequest(payer, { requestId: paid.request.id, authorization: "x", ledger: "test.uplink" });
  merchant = built.merchant;
  const requestId = built.request.id;
  const transactionId = purchase.transactions[0]!.id;
  const amount = (name: string, type: string): Param => ({ ...text(name, "INVALID_AMOUNT", type), number: true });
  operations = [
    {
      rest: "merchants.configurations.info",
      graphql: { field: "merchantConfiguration", select: "name" },
      base: { merchantId: merchant.merchantId },
      params: [text("merchantId", "INVALID_MERCHANT_ID", "ID!"), text("clientId", "INVALID_CLIENT_ID", "ID")],
    },
    {
      rest: "requests.create",
      graphql: { field: "requestCreate", mutation: true, input: "RequestCreateInput", select: "__typename" },
      base: { merchantId: merchant.merchantId, asset: "NZD", amount: 300 },
      params: [
        text("merchantId", "INVALID_MERCHANT_ID", "ID!"),
        text("asset", "INVALID_ASSET", "String!"),
        amount("amount", "Amount!"),
        text("clientId", "INVALID_CLIENT_ID", "ID"),
        text("externalReference", "INVALID_REFERENCE", "String"),
        text("description", "INVALID_DESCRIPTION", "String"),
        text("notifyUrl", "INVALID_NOTIFY_URL", "String"),
        { ...text("paymentExpirySeconds", "INVALID_PAYMENT_EXPIRY_SECONDS", "Int"), number: true },
      ],
    },
    {
      rest: "requests.info",
      graphql: { field: "paymentRequest", select: "id" },
      base: { requestId },
      graphqlBase: { id: requestId },
      params: [
        text("requestId", "INVALID_REQUEST_ID", "ID", { required: true, graphql: { name: "id", type: "ID" } }),
        text("requestCode", "INVALID_REQUEST_ID", "String"),
      ],
    },
    {
      rest: "requests.pay",
      graphql: { field: "requestPay", mutation: true, input: "RequestPayInput", select: "__typename" },
      base: { requestId, ledger: "test.uplink", authorization: "tok" },
      params: [
        text("requestId", "INVALID_REQUEST_ID", "ID!"),
        text("authorization", "INVALID_AUTHORIZATION", "String!"),
        text("ledger", "INVALID_LEDGER", "String!"),
      ],
    },
    {
      // The other name for authorization, beside it or alone.
      rest: "requests.pay",
      graphql: { field: "requestPay", mutation: true, input: "RequestPayInput", select: "__typename" },
      base: { requestId, ledger: "test.uplink" },
      params: [{ name: "paymentAuthorization", code: "INVALID_AUTHORIZATION", required: true }],
    },
    {
      rest: "requests.pay",
      graphql: { field: "requestPay", mutation: true, input: "RequestPayInput", select: "__typename" },
      base: { requestId, ledger: "test.uplink", authorization: "tok" },
      params: [{ name: "paymentAuthorization", code: "INVALID_AUTHORIZATION", required: true }],
    },
    {
      rest: "requests.cancel",
      graphql: { field: "requestCancel", mutation: true, input: "RequestCancelInput", select: "__typename" },
      base: { requestId },
      params: [text("requestId", "INVALID_REQUEST_ID", "ID!")],
    },
    {
      rest: "transactions.refund",
      graphql: { field: "transactionRefund", mutation: true, input: "TransactionRefundInput", select: "__typename" },
      base: { transactionId, amount: 1 },
      params: [
        text("transactionId", "INVALID_TRANSACTION_ID", "ID!"),
        amount("amount", "Amount!"),
        text("externalReference", "INVALID_REFERENCE", "String"),
      ],
    },
    {
      graphql: { field: "transaction", select: "id" },
      base: { id: transactionId },
      params: [text("id", "INVALID_TRANSACTION_ID", "ID!")],
    },
    {
      // List filters: anything malformed there is BAD_REQUEST.
      graphql: { field: "paymentRequests", select: "edges { cursor }" },
      base: {},
      params: [
        text("externalReference", "BAD_REQUEST", "String"),
        text("clientId", "BAD_REQUEST", "ID"),
        text("ledger", "BAD_REQUEST", "String"),
      ].map((param) => ({ ...param, graphql: { ...param.graphql!, name: `filter.${param.name}` } })),
    },
    {
      graphql: { field: "transactions", select: "edges { cursor }" },
      base: {},
      params: [{ ...text("ledger", "BAD_REQUEST", "String"), graphql: { name: "filter.ledger", type: "String" } }],
    },
  ];
});

/** Everything of this file's merchant that a refused call must leave as it was. */
async function snapshot() {
  const where = { merchantId: merchant.merchantId };
  return {
    requests: await db.paymentRequest.findMany({
      where,
      select: { id: true, status: true, updatedAt: true },
      orderBy: { id: "asc" },
    }),
    transactions: await db.transaction.count({ where }),
    events: await db.webhookEvent.count({ where }),
  };
}

/** A JSON object written out, with `extra` (already JSON) as the last member. */
const jsonObject = (base: Record<string, unknown>, name: string, extra: string) =>
  `{${[...Object.entries(base).filter(([key]) => key !== name), [name, null] as const]
    .map(([key, value]) => `${JSON.stringify(key)}:${key === name ? extra : JSON.stringify(value)}`)
    .join(",")}}`;

async function graphqlBody(body: string) {
  const response = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
      body,
    }),
  );
  const answer = (await response.json()) as {
    data?: Record<string, { code?: string } | null> | null;
    errors?: { extensions?: { code?: string } }[];
  };
  return { status: response.status, answer };
}

/** The code GraphQL answered with: a top-level error's, or the mutation's typed error's. */
const codeOf = ({ answer }: Awaited<ReturnType<typeof graphqlBody>>, field: string) =>
  answer.errors?.[0]?.extensions?.code ?? answer.data?.[field]?.code ?? JSON.stringify(answer);

/** GraphQL literal text of a JSON value (strings and numbers are written alike). */
const literal = (value: unknown) => JSON.stringify(value);

/** One call with `name` given as the variable $v (declared `type`) and the rest of the base as literals. */
function variableDocument(operation: Operation, name: string, type: string) {
  const { field, mutation, input, select } = operation.graphql;
  const [outer, inner] = name.split(".") as [string, string | undefined];
  const args = Object.entries(operation.graphqlBase ?? operation.base)
    .filter(([key]) => key !== name)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  args.push(inner ? `${outer}: { ${inner}: $v }` : `${name}: $v`);
  const selection = mutation ? "__typename ... on Error { code }" : select;
  return `${mutation ? "mutation" : "query"}($v: ${type}) { ${field}(${input ? `input: { ${args.join(", ")} }` : args.join(", ")}) { ${selection} } }`;
}

/** A JSON string's escapes written as the characters themselves. */
const unescaped = (text: string) => text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe("JSON types and unpaired surrogates, on every parameter", () => {
  it("REST JSON bodies: a value of the wrong JSON type or with an unpaired surrogate is that parameter's INVALID_* (400)", async () => {
    const before = await snapshot();
    const seen: unknown[] = [];
    for (const operation of operations.filter((o) => o.rest))
      for (const param of operation.params)
        for (const value of wrongValues(param)) {
          const body = jsonObject(operation.base, param.name, value);
          const { status, body: answer } = await rest(operation.rest!, {
            apiKey: merchant.apiKey,
            raw: { body, contentType: "application/json" },
          });
          seen.push({ body, status, code: answer.message });
          expect({ body, status, code: answer.message }).toEqual({ body, status: 400, code: param.code });
        }
    expect(seen.length).toBeGreaterThan(250);
    expect(await snapshot()).toEqual(before);
  });

  it("GraphQL variables (the whole input, or the one value): the parameter's code", async () => {
    const before = await snapshot();
    for (const operation of operations)
      for (const param of operation.params.filter((p) => p.graphql))
        for (const value of wrongValues(param)) {
          const { name, type } = param.graphql!;
          const single = variableDocument(operation, name, type);
          const answers = [await graphqlBody(`{"query":${JSON.stringify(single)},"variables":{"v":${value}}}`)];
          if (operation.graphql.input) {
            const whole = `mutation($i: ${operation.graphql.input}!) { ${operation.graphql.field}(input: $i) { __typename ... on Error { code } } }`;
            answers.push(
              await graphqlBody(
                `{"query":${JSON.stringify(whole)},"variables":{"i":${jsonObject(operation.base, name, value)}}}`,
              ),
            );
          }
          for (const answer of answers) {
            const at = { field: operation.graphql.field, name, value };
            expect({ ...at, code: codeOf(answer, operation.graphql.field) }).toEqual({ ...at, code: param.code });
            expect(answer.status).toBeLessThan(500);
          }
        }
    expect(await snapshot()).toEqual(before);
  });

  it("GraphQL literals: an integer for an ID is the parameter's code; an unpaired surrogate is not GraphQL (a syntax error)", async () => {
    const before = await snapshot();
    for (const operation of operations)
      for (const param of operation.params.filter((p) => p.graphql)) {
        const { name, type } = param.graphql!;
        const document = (value: string) =>
          variableDocument(operation, name, type).replace(`($v: ${type})`, "").replace("$v", value);
        // Escaped, and as the characters themselves (a block string reads no escapes).
        for (const value of ['"x\\ud800"', '"\\udc00"', unescaped('"x\\ud800"'), unescaped('"""a\\udc00b"""')]) {
          const answer = await graphqlBody(JSON.stringify({ query: document(value) }));
          expect({ name, value, code: codeOf(answer, operation.graphql.field) }).toEqual({
            name,
            value,
            code: "GRAPHQL_PARSE_FAILED",
          });
        }
        if (type.startsWith("ID")) {
          const answer = await graphqlBody(JSON.stringify({ query: document("15") }));
          expect({ name, status: answer.status, code: codeOf(answer, operation.graphql.field) }).toEqual({
            name,
            status: 400,
            code: param.code,
          });
        }
      }
    expect(await snapshot()).toEqual(before);
  });

  it("GraphQL list filters: enum, date and list values of the wrong JSON type are BAD_REQUEST", async () => {
    for (const [type, field, values] of [
      ["[RequestStatus!]", "status", ["1", "true", '"PAID\\ud800"', '"paid"', "{}", "[[]]"]],
      ["DateTime", "createdFrom", ["0", "1700000000000", "true", "[]", '"x\\ud800"', '"+275760-09-13T00:00:00.000Z"']],
      ["DateTime", "createdTo", ["1.5", "false", "{}"]],
    ] as const)
      for (const value of values) {
        const query = `query($v: ${type}) { paymentRequests(filter: { ${field}: $v }) { edges { cursor } } }`;
        const answer = await graphqlBody(`{"query":${JSON.stringify(query)},"variables":{"v":${value}}}`);
        expect({ field, value, status: answer.status, code: codeOf(answer, "paymentRequests") }).toEqual({
          field,
          value,
          status: 400,
          code: "BAD_REQUEST",
        });
      }
  });

  it("REST query strings and form bodies cannot carry an unpaired surrogate: its bytes decode to U+FFFD", async () => {
    const base = { merchantId: merchant.merchantId, asset: "NZD", amount: "300" };
    const form = await rest("requests.create", {
      apiKey: merchant.apiKey,
      raw: { body: `${new URLSearchParams(base)}&description=a%ED%A0%80b`, contentType: "application/x-www-form-urlencoded" },
    });
    const query = await rest("requests.create", { apiKey: merchant.apiKey, query: { ...base, description: "a\ud800b" } });
    for (const { status, body } of [form, query]) {
      expect(status).toBe(200);
      expect(body.description).toMatch(/^a\uFFFD+b$/);
    }
  });
});
