import { createGraphQLError } from "@graphql-tools/utils";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { parseJson } from "../transport/json.js";

/** `variables` or `extensions` as JSON (with the contract's number grammar, as in POST bodies). */
function jsonParameter(params: URLSearchParams, name: "variables" | "extensions"): unknown {
  const text = params.get(name);
  if (!text) return undefined;
  try {
    return parseJson(text);
  } catch {
    throw createGraphQLError(`The ${name} parameter is not valid JSON.`, {
      extensions: { http: { status: 400 }, code: "BAD_REQUEST" },
    });
  }
}

function paramsOf(params: URLSearchParams): GraphQLParams {
  return {
    query: params.get("query") || undefined,
    operationName: params.get("operationName") || undefined,
    variables: jsonParameter(params, "variables") as GraphQLParams["variables"],
    extensions: jsonParameter(params, "extensions") as GraphQLParams["extensions"],
  };
}

/**
 * Reads GraphQL parameters sent as a query string (GET) or a form (POST): `variables` and
 * `extensions` that are not JSON are BAD_REQUEST (400), where Yoga's own reader fails with a 500.
 */
export function useSearchParams(): Plugin {
  return {
    onRequestParse({ request, url, setRequestParser }) {
      if (request.method === "GET") setRequestParser(() => paramsOf(url.searchParams));
      else if (/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? ""))
        setRequestParser(async (req) => paramsOf(new URLSearchParams(await req.text())));
    },
  };
}
