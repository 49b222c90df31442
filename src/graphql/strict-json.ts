import { createGraphQLError } from "@graphql-tools/utils";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { parseJson } from "../transport/json.js";

const badRequest = (message: string) =>
  createGraphQLError(message, { extensions: { http: { status: 400 }, code: "BAD_REQUEST" } });

/**
 * Reads JSON bodies with the contract's number grammar (transport/json.ts), as REST does: a
 * variable `"amount": 1e3` or `300.0` reaches the Amount scalar as a JsonNumberText and is refused,
 * where JSON.parse would have turned it into a valid 1000 or 300.
 */
export function useStrictJsonNumbers(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method !== "POST" || !/^application\/(graphql\+)?json\b/i.test(request.headers.get("content-type") ?? ""))
        return;
      setRequestParser(async (req) => {
        let body: unknown;
        try {
          body = parseJson(await req.text());
        } catch {
          throw badRequest("POST body sent invalid JSON.");
        }
        if (typeof body !== "object" || body === null) throw badRequest("POST body is expected to be a JSON object.");
        return body as GraphQLParams;
      });
    },
  };
}
