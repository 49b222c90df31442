import fc from "fast-check";
import { db } from "./prisma.js";
import { payRequest } from "../src/domain/requests/pay.js";
import { app } from "./fixtures.js";
import { buildRequest, payer, type TestMerchant } from "./factories.js";

/*
 * Every parameter of every operation, as REST and GraphQL take it, with a call that is valid but
 * for it: the JSON-type tests and both fuzzers give one parameter a wrong value and expect its code.
 */

/** A parameter: its REST name, its GraphQL name and type where GraphQL takes it, and its code. */
export interface Param {
  name: string;
  code: string;
  number?: boolean;
  required?: boolean;
  /** GraphQL's name and type; none where only REST takes it (paymentAuthorization). */
  graphql?: { name: string; type: string };
}

export interface Operation {
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
export const NOT_TEXT = ["1.5", "1e3", "15", "-0", "true", "false", "[]", '["x"]', "{}", '{"x":"y"}'];
/** JSON values of the wrong type for an amount (a JSON integer or a digit string). */
export const NOT_WHOLE = ["1.5", "1e3", "300.0", "true", "[]", "[300]", "{}", '{"amount":300}'];
/** Unpaired UTF-16 surrogates, as JSON escapes. */
export const SURROGATES = ['"x\\ud800"', '"\\udc00"', '"a\\udfffb"', '"\\ud800\\ud800\\udc00"', '"\\udc00\\ud800"'];

export const wrongValues = (param: Param) => [
  ...(param.number ? NOT_WHOLE : NOT_TEXT),
  ...SURROGATES,
  ...(param.required ? ["null"] : []),
];

/** Text holding an unpaired UTF-16 surrogate (whole code points either side of it) or U+0000. */
export const illFormedText = () =>
  fc.oneof(
    fc
      .tuple(fc.string({ unit: "binary", maxLength: 6 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 6 }))
      .map(([before, unit, after]) => `${before}${String.fromCharCode(unit)}${after}`),
    fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([a, b]) => `${a}\u0000${b}`),
  );

/** Whether a JSON value holds ill-formed text anywhere (keys too). */
export const holdsIllFormedText = (value: unknown): boolean =>
  typeof value === "string"
    ? // eslint-disable-next-line no-control-regex -- U+0000 is the character this pattern exists to find
      /[\u0000\p{Cs}]/u.test(value)
    : typeof value === "object" &&
      value !== null &&
      Object.entries(value).some(([key, v]) => holdsIllFormedText(key) || holdsIllFormedText(v));

const json = (value: unknown) => JSON.stringify(value);
const containers = () =>
  fc.oneof(
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }).map(json),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map(json),
  );
/** Numbers as JSON writes them but the contract never reads as an integer. */
const foreignNumbers = () =>
  fc.constantFrom("1e3", "3E2", "300.0", "-0.0", "1E-7", "4503599627370496.5", "9007199254740993", "1e400");

/**
 * JSON texts `param` must refuse with its code: another JSON type, text holding an unpaired
 * surrogate or U+0000, and null where it is required. In GraphQL an Int takes no string either.
 */
export function wrongJson(param: Param, transport: "rest" | "graphql") {
  const numbers = param.number
    ? fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((n) => !Number.isSafeInteger(n))
        .map(json)
    : fc.oneof(fc.integer().map(json), fc.double({ noNaN: true, noDefaultInfinity: true }).map(json));
  const intTakesNoString = transport === "graphql" && param.graphql?.type.startsWith("Int");
  return fc.oneof(
    numbers,
    foreignNumbers(),
    fc.boolean().map(json),
    containers(),
    illFormedText().map(json),
    ...(param.required ? [fc.constant("null")] : []),
    ...(intTakesNoString ? [fc.string({ maxLength: 8 }).map(json)] : []),
  );
}

/** A fresh merchant with an open request and a purchase, and every operation's parameters for them. */
export async function buildOperations() {
  const built = await buildRequest();
  const paid = await buildRequest({ merchant: built.merchant });
  const purchase = await payRequest(payer, { requestId: paid.request.id, authorization: "x", ledger: "test.uplink" });
  const merchant = built.merchant;
  const requestId = built.request.id;
  const transactionId = purchase.purchase!.id;
  const amount = (name: string, type: string): Param => ({ ...text(name, "INVALID_AMOUNT", type), number: true });
  const operations: Operation[] = [
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
        { ...text("paymentExpirySeconds", "INVALID_PAYMENT_EXPIRY_SECONDS", "ExpirySeconds"), number: true },
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
  return { merchant, operations };
}

/** Everything of a merchant that a refused call must leave as it was. */
export async function snapshot(merchant: TestMerchant) {
  const where = { merchantId: merchant.merchantId };
  return {
    requests: await db.paymentRequest.findMany({
      where,
      select: { id: true, status: true, updatedAt: true },
      orderBy: { id: "asc" },
    }),
    transactions: await db.transaction.count({ where }),
    events: await db.delivery.count({ where }),
  };
}

/** A JSON object written out, with `extra` (already JSON) as the last member. */
export const jsonObject = (base: Record<string, unknown>, name: string, extra: string) =>
  `{${[...Object.entries(base).filter(([key]) => key !== name), [name, null] as const]
    .map(([key, value]) => `${JSON.stringify(key)}:${key === name ? extra : JSON.stringify(value)}`)
    .join(",")}}`;

export async function graphqlBody(apiKey: string, body: string) {
  const response = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
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
export const codeOf = ({ answer }: Awaited<ReturnType<typeof graphqlBody>>, field: string) =>
  answer.errors?.[0]?.extensions?.code ?? answer.data?.[field]?.code ?? JSON.stringify(answer);

/** One call with `name` given as the variable $v (declared `type`) and the rest of the base as literals. */
export function variableDocument(operation: Operation, name: string, type: string) {
  const { field, mutation, input, select } = operation.graphql;
  const [outer, inner] = name.split(".") as [string, string | undefined];
  const args = Object.entries(operation.graphqlBase ?? operation.base)
    .filter(([key]) => key !== name)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  args.push(inner ? `${outer}: { ${inner}: $v }` : `${name}: $v`);
  const selection = mutation ? "__typename ... on Error { code }" : select;
  return `${mutation ? "mutation" : "query"}($v: ${type}) { ${field}(${input ? `input: { ${args.join(", ")} }` : args.join(", ")}) { ${selection} } }`;
}

/**
 * GraphQL bodies giving `param` the JSON text `value`: as the variable $v, and for an operation
 * that takes an input type also within the whole input as $i.
 */
export function graphqlBodies(operation: Operation, param: Param, value: string): string[] {
  const { name, type } = param.graphql!;
  const bodies = [`{"query":${JSON.stringify(variableDocument(operation, name, type))},"variables":{"v":${value}}}`];
  const { field, input } = operation.graphql;
  if (input) {
    const whole = `mutation($i: ${input}!) { ${field}(input: $i) { __typename ... on Error { code } } }`;
    bodies.push(`{"query":${JSON.stringify(whole)},"variables":{"i":${jsonObject(operation.base, name, value)}}}`);
  }
  return bodies;
}

/** A JSON string's escapes written as the characters themselves. */
export const unescaped = (text: string) =>
  text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
