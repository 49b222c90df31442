import { useDisableIntrospection } from "@envelop/disable-introspection";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { createYoga, maskError } from "graphql-yoga";
import { config } from "../config.js";
import { GraphQLError } from "graphql";
import { isDatabaseUnavailable } from "../db.js";
import { DomainError, ExternalServiceError } from "../domain/errors.js";
import { graphqlMetricsPlugin } from "../http/metrics.js";
import { logger } from "../logger.js";
import { createGraphQLContext } from "./context.js";
import { schema } from "./schema.js";

/**
 * The GraphQL endpoint. Query fields report a DomainError as a GraphQL error carrying its CODE in
 * `extensions.code` (mutations return typed errors instead); everything else stays masked.
 */
export function createGraphQLHandler() {
  return createYoga({
    schema,
    context: createGraphQLContext,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: config.graphql.graphiql ? { title: "Payment requests", headers: JSON.stringify({ "X-Api-Key": "" }) } : false,
    plugins: [
      // Browsers can send "simple" cross-site requests without a preflight; those must carry this header.
      graphqlMetricsPlugin(),
      useCSRFPrevention({ requestHeaders: ["x-graphql-yoga-csrf", "x-api-key"] }),
      // Abusive queries are refused before execution.
      maxDepthPlugin({ n: 10, flattenFragments: true }),
      costLimitPlugin({ maxCost: 5000 }),
      ...(config.graphql.introspection ? [] : [useDisableIntrospection()]),
    ],
    logging: logger.child({ component: "graphql" }),
    maskedErrors: {
      maskError(error, message, isDev) {
        // A DomainError already carries its CODE in extensions (see DomainError.extensions).
        // Duck-typed: graphql's CJS and ESM builds can both be loaded, so instanceof GraphQLError is unreliable.
        const original = (error as { originalError?: unknown }).originalError ?? error;
        if (original instanceof DomainError) return error as Error;
        if (isDatabaseUnavailable(original)) {
          const unavailable = new ExternalServiceError();
          return new GraphQLError(unavailable.message, { extensions: unavailable.extensions });
        }
        return maskError(error, message, isDev);
      },
    },
  });
}
