import { beforeAll, describe, expect, it } from "vitest";
import { app, rest } from "../fixtures.js";
import type { TestMerchant } from "../factories.js";
import {
  buildOperations,
  codeOf,
  graphqlBody as graphqlCall,
  graphqlBodies,
  jsonObject,
  snapshot as snapshotOf,
  unescaped,
  variableDocument,
  wrongValues,
  type Operation,
} from "../parameters.js";

let merchant: TestMerchant;
let operations: Operation[];

beforeAll(async () => {
  ({ merchant, operations } = await buildOperations());
});

const snapshot = () => snapshotOf(merchant);
const graphqlBody = (body: string) => graphqlCall(merchant.apiKey, body);

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
          const name = param.graphql!.name;
          const answers = [];
          for (const body of graphqlBodies(operation, param, value)) answers.push(await graphqlBody(body));
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

  it("REST query strings and form bodies: an encoded unpaired surrogate (bytes that are not UTF-8) is the parameter's code, never U+FFFD", async () => {
    const before = await snapshot();
    const base = { merchantId: merchant.merchantId, asset: "NZD", amount: "300" };
    for (const [name, code] of [
      ["description", "INVALID_DESCRIPTION"],
      ["externalReference", "INVALID_REFERENCE"],
      ["asset", "INVALID_ASSET"],
    ] as const) {
      const given = { ...base, [name]: "a" };
      const encoded = new URLSearchParams(given).toString().replace(`${name}=a`, `${name}=a%ED%A0%80b`);
      const form = await rest("requests.create", {
        apiKey: merchant.apiKey,
        raw: { body: encoded, contentType: "application/x-www-form-urlencoded" },
      });
      const response = await app.fetch(
        new Request(`http://test/api/requests.create?${encoded}`, { headers: { "x-api-key": merchant.apiKey } }),
      );
      const query = { status: response.status, body: (await response.json()) as { message: string } };
      for (const [transport, { status, body }] of [
        ["form", form],
        ["query", query],
      ] as const) {
        expect({ name, transport, status, code: body.message }).toEqual({ name, transport, status: 400, code });
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});
