import { z } from "zod";
import { errorCodeDescriptions } from "../../domain/errors.js";
import { payPagePaths } from "../pay/openapi.js";
import { errorBody } from "./errors.js";
import { legacyPaymentRequest } from "./present.js";
import { routes } from "./routes.js";

type JsonSchema = Record<string, unknown>;

/** JSON Schema of a zod schema as OpenAPI 3.1 embeds it (no `$schema` key). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });
  return rest;
}

/**
 * The OpenAPI 3.1 description of the dotted routes, generated from the zod schemas the domain
 * parses their parameters with and the schemas of the legacy responses.
 */
export function openApiDocument() {
  const paths: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(routes)) {
    const params = jsonSchema(route.params, "input");
    const properties = (params.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((params.required ?? []) as string[]);
    const operation = (method: "get" | "post") => ({
      operationId: `${name}.${method}`,
      summary: route.summary,
      tags: [name.split(".")[0]],
      parameters: Object.entries(properties).map(([param, schema]) => ({
        name: param,
        in: "query",
        required: method === "get" && required.has(param),
        schema,
      })),
      ...(method === "post"
        ? {
            requestBody: {
              description: "The parameters; a body parameter wins over the same one in the query string.",
              content: { "application/x-www-form-urlencoded": { schema: params }, "application/json": { schema: params } },
            },
          }
        : {}),
      responses: {
        "200": { description: "Success", content: { "application/json": { schema: jsonSchema(route.response, "output") } } },
        default: {
          description: "An error; `message` is the CODE.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    });
    paths[`/api/${name}`] = { get: operation("get"), post: operation("post") };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Payment requests: legacy dotted API",
      version: "1.0.0",
      description:
        "Every /api route takes GET and POST, with parameters in the query string and/or a form-encoded or JSON body. " +
        "The /pay addresses are the hosted pay page: public, no API key. " +
        "Error codes:\n\n" +
        Object.entries(errorCodeDescriptions)
          .map(([code, when]) => `- \`${code}\`: ${when}`)
          .join("\n"),
    },
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" } },
      schemas: { Error: jsonSchema(errorBody, "output") },
    },
    paths: { ...paths, ...payPagePaths(jsonSchema(legacyPaymentRequest, "output")) },
  };
}
