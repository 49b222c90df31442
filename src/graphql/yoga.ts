import { useDisableIntrospection } from "@envelop/disable-introspection";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { createYoga, type Plugin, type YogaServerOptions } from "graphql-yoga";
import type { useOpenTelemetry } from "@envelop/opentelemetry";
import type { Logger } from "../logger.js";
import type { RequestChangeFeed } from "../pubsub/request-changes.js";
import type { Links } from "../transport/links.js";
import type { RateLimiter } from "../transport/rate-limit.js";
import type { ReadYourWrites } from "../transport/read-your-writes.js";
import type { RequestContexts } from "../transport/request-context.js";
import { graphQLContextFactory, type GraphQLContext } from "./context.js";
import { useConsoleCalls } from "./console-calls.js";
import { useKeyOnSimpleRequests } from "./key-required.js";
import { maskUnexpectedError } from "./mask-error.js";
import { useGraphQLMetrics } from "./metrics.js";
import { createTenantReadLimits, limitingTenantReads } from "./tenant-read-limit.js";
import { notingWrites } from "./noted-writes.js";
import { MAX_ALIASES, refusedAsBadRequest, useOperationBounds } from "./operation-bounds.js";
import { useRateLimit } from "./rate-limit.js";
import { schema } from "./schema.js";
import { useSearchParams } from "./search-params.js";
import { useStrictJsonNumbers } from "./strict-json.js";
import { useStrictVariables } from "./strict-variables.js";
import { useNoSuggestions } from "./suggestions.js";
import type { WebhookCallSettings } from "../domain/webhooks/call-settings.js";

/**
 * The GraphQL endpoint. Query fields report a DomainError as a GraphQL error carrying its CODE in
 * `extensions.code` (mutations return typed errors instead); everything else stays masked.
 */
export interface GraphQLSettings {
  graphiql: boolean;
  introspection: boolean;
  /** The browser origins that may call /graphql (CORS_ORIGINS). */
  corsOrigins: string[];
  /** Where endpoints may point, and how long a test event's call waits for its attempt. */
  webhooks: WebhookCallSettings;
}

/** What the endpoint is made of: the API process's parts it uses. */
export interface GraphQLParts {
  changes: RequestChangeFeed;
  /** The bound on open subscription streams (graphql/stream-limit.ts). */
  streams: Plugin<GraphQLContext>;
  contexts: RequestContexts;
  limiter: RateLimiter;
  logger: Logger;
  links: Links;
  /** When the process traces: a span per operation (graphql/tracing.ts). */
  operationSpans?: ReturnType<typeof useOpenTelemetry> | undefined;
  /** With a read replica (DATABASE_READ_URL): where reads that may lag go, and how writes are noted. */
  readYourWrites?: ReadYourWrites | undefined;
  /** The merchant console's calls: its persisted documents, its session cookie's name, and its origin (graphql/console-calls.ts). */
  console: { documents: Parameters<typeof useConsoleCalls>[0]; cookie: string; origin: string };
}

/** One of the endpoint's plugins, by the name the bench's graphql-cost section prices it under. */
export interface NamedPlugin {
  name: string;
  plugin: NonNullable<YogaServerOptions<object, GraphQLContext>["plugins"]>[number];
}

/** The endpoint's plugins, in their order. */
export function graphQLPlugins(
  { streams, contexts, limiter, operationSpans, console }: GraphQLParts,
  settings: GraphQLSettings,
): NamedPlugin[] {
  const named = (name: string, plugin: NamedPlugin["plugin"]) => ({ name, plugin });
  return [
    named("metrics", useGraphQLMetrics()),
    // Before anything is read: every call costs at least one point of its key's (or its address's) limit;
    // before it runs, the rest of its points, priced with its variables (and refused past MAX_COST).
    named("rate limit", useRateLimit(limiter, contexts)),
    // Browsers can send "simple" cross-site requests without a preflight; those must carry a key.
    named("key on simple requests", useKeyOnSimpleRequests()),
    // A console session's call: its origin, CSRF token and persisted document, before anything is parsed.
    named("console calls", useConsoleCalls(console.documents, { cookie: console.cookie, origin: console.origin, contexts })),
    named("strict JSON numbers", useStrictJsonNumbers()),
    named("search params", useSearchParams()),
    // Abusive queries are refused before execution (their cost, which hangs on variables, by useRateLimit).
    named("max depth", maxDepthPlugin({ n: 10, flattenFragments: true, ...refusedAsBadRequest })),
    // One tenant's operation stays small: few aliases (`__typename` ones too), few writes (see the contract's per-tenant bounds).
    named("max aliases", maxAliasesPlugin({ n: MAX_ALIASES, allowList: [], exposeLimits: true, ...refusedAsBadRequest })),
    named("operation bounds", useOperationBounds()),
    // Without introspection, "Did you mean …" must not spell out the schema either.
    ...(settings.introspection
      ? []
      : [named("no introspection", useDisableIntrospection()), named("no suggestions", useNoSuggestions())]),
    named("strict variables", useStrictVariables()),
    // Each operation is compiled once into plain JavaScript (cached per document): about a sixth
    // less CPU per call than graphql-js's interpreter, measured on paymentRequest.
    named("graphql-jit", useGraphQlJit()),
    // After the compiler, whose execution it wraps to make the operation's span the current one.
    ...(operationSpans ? [named("tracing", operationSpans)] : []),
    // Last: an operation refused above takes no place (graphql/stream-limit.ts).
    named("stream limit", streams),
  ];
}

/**
 * The GraphQL endpoint, with its plugins (`graphQLPlugins`'s, unless given: the bench prices them
 * one at a time).
 */
export function createGraphQLHandler(
  parts: GraphQLParts,
  settings: GraphQLSettings,
  plugins: NamedPlugin[] = graphQLPlugins(parts, settings),
) {
  const { changes, contexts, links, logger, readYourWrites } = parts;
  return createYoga({
    schema: readYourWrites ? notingWrites(limitingTenantReads(schema)) : limitingTenantReads(schema),
    // One per process: a tenant's reads run a few at a time across all of its calls.
    context: graphQLContextFactory(changes, contexts, links, settings.webhooks, createTenantReadLimits(), readYourWrites),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // http/app.ts bounds /graphql bodies at 64 KiB before Yoga sees them; Yoga's own (stream-wrapping) check is redundant.
    maxRequestBodySize: false,
    // The Response the HTTP server installed (src/api/server.ts makes the app after it): @hono/node-server
    // writes its own Response straight to the socket, where another one is read back as a stream.
    fetchAPI: { Response: globalThis.Response },
    // Dashboards call /graphql from browsers: only the configured origins may. Yoga sets these
    // headers on its own answer; Hono's cors() re-creates a finished Response to add `Vary`.
    cors: corsFor(settings.corsOrigins),
    // GraphiQL's page (settings.graphiql) is answered before Yoga, compressed and cached (http/graphiql.ts).
    graphiql: false,
    plugins: plugins.map(({ plugin }) => plugin),
    logging: logger.child({ component: "graphql" }),
    // Yoga logs what it masks (logging: above).
    maskedErrors: { maskError: maskUnexpectedError },
  });
}

/**
 * CORS headers for the listed origins only, each answered with its own name. Yoga's own option
 * reads an empty list as every origin, and answers an unlisted one with the sole listed origin or
 * `null`; here an unlisted origin, and every origin when none is listed, gets no CORS header at all.
 */
function corsFor(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (request: Request) => {
    const origin = request.headers.get("origin");
    if (origin === null || !allowed.has(origin)) return false as const;
    return {
      origin: [origin],
      methods: ["GET", "POST"],
      allowedHeaders: ["content-type", "x-api-key", "idempotency-key"],
      credentials: false,
      maxAge: 600,
    };
  };
}
