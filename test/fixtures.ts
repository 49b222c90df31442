import { print, type ExecutionResult } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { createApp } from "../src/http/app.js";

/** The API in-process: tests call its fetch handler, no port is opened. */
export const app = createApp();

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
