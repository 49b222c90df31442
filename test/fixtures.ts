import { print, type ExecutionResult } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { createTestApp } from "./test-app.js";

/** The API in-process: tests call its fetch handler, no port is opened. */
export const app = createTestApp();

/** Sends a typed GraphQL document to /graphql with an API key (or none). */
export async function gql<Result, Variables>(
  document: TypedDocumentNode<Result, Variables>,
  variables: Variables,
  apiKey?: string,
): Promise<ExecutionResult<Result> & { status: number }> {
  const response = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
      body: JSON.stringify({ query: print(document), variables }),
    }),
  );
  return { ...((await response.json()) as ExecutionResult<Result>), status: response.status };
}

/** A GraphQL answer as JSON, for documents without a generated type (refusals, variables of any JSON type). */
export type GraphQLAnswer = {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

/** Sends an untyped document (and its operationName, if any) to /graphql with an API key. */
export async function graphqlPost<Body = GraphQLAnswer>(
  apiKey: string,
  query: string,
  variables: object = {},
  operationName?: string,
) {
  return graphqlPostTo<Body>(app, apiKey, query, variables, operationName);
}

/** graphqlPost to another app than the tests' own (one made with other settings by test-app.ts). */
export async function graphqlPostTo<Body = GraphQLAnswer>(
  to: { fetch: (request: Request) => Response | Promise<Response> },
  apiKey: string,
  query: string,
  variables: object = {},
  operationName?: string,
) {
  const response = await to.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ query, variables, ...(operationName === undefined ? {} : { operationName }) }),
    }),
  );
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Body };
}

export interface RestCall {
  method?: "GET" | "POST";
  apiKey?: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** Extra request headers (Idempotency-Key, Origin, …). */
  headers?: Record<string, string>;
  /** A raw body with its content type, for malformed input. */
  raw?: { body: string; contentType: string };
}

/** Calls a dotted legacy route in-process and returns its status and JSON body. */
export async function rest(operation: string, call: RestCall = {}) {
  const url = new URL(`http://test/api/${operation}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { ...(call.apiKey ? { "x-api-key": call.apiKey } : {}), ...call.headers };
  let body: string | undefined;
  if (call.form)
    [body, headers["content-type"]] = [new URLSearchParams(call.form).toString(), "application/x-www-form-urlencoded"];
  if (call.json !== undefined) [body, headers["content-type"]] = [JSON.stringify(call.json), "application/json"];
  if (call.raw) [body, headers["content-type"]] = [call.raw.body, call.raw.contentType];
  const response = await app.fetch(
    new Request(url, { method: call.method ?? (body === undefined ? "GET" : "POST"), headers, body }),
  );
  // Legacy JSON, asserted field by field.
  return { status: response.status, headers: response.headers, body: await response.json() };
}
