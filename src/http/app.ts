import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { declaredBodyLength, MAX_GRAPHQL_BODY_BYTES } from "./limits.js";
import type { Logger } from "../logger.js";
import { replica } from "../db.js";
import { databaseAnswers } from "../domain/reachable.js";
import { revokedAmong, REVOKED_STREAMS_CHECK_MS } from "../key-revocations.js";
import { publishedSigningKeys } from "../domain/webhooks/signing-keys.js";
import { publishRequestChanges, subscribeRequestChanges } from "../pubsub/request-changes.js";
import { redisReachable } from "../transport/redis.js";
import type { RedisClient, RedisTopology } from "../redis-connection.js";
import { getConnInfo } from "@hono/node-server/conninfo";
import { clientAddressFrom, parseAddressRange, type AddressRange } from "../transport/client-address.js";
import { openKeyRevocations } from "../key-revocations.js";
import { consoleCookieName } from "../transport/console-session.js";
import { consoleDocuments } from "./console/documents.js";
import { mountConsole } from "./console/routes.js";
import { carryOver, createRequestContexts, recordClientAddress, requestIdOf } from "../transport/request-context.js";
import { createRateLimiter } from "../transport/rate-limit.js";
import { readYourWrites } from "../transport/read-your-writes.js";
import { pageLinks } from "../transport/links.js";
import {
  createGraphQLHandler,
  graphQLPlugins,
  type GraphQLParts,
  type GraphQLSettings,
  type NamedPlugin,
} from "../graphql/yoga.js";
import { graphiqlPage } from "./graphiql.js";
import { boundedStreams } from "../graphql/stream-limit.js";
import { createStreamSlots, type StreamLimits } from "../transport/stream-slots.js";
import { mountPayPage } from "./pay/routes.js";
import { mountQrCodes } from "./qr.js";
import { countCalls } from "./metrics.js";
import { callerMiddleware, errorRenderer } from "./middleware.js";
import { trackCalls } from "./stopping.js";
import { mountRest } from "./rest/router.js";
import { routes } from "./rest/routes.js";

/** The settings the app reads: those parts of the API's configuration (src/api/config.ts). */
export interface AppSettings {
  server: { publicUrl: string; corsOrigins: string[]; trustedProxies: string[] };
  graphql: Omit<GraphQLSettings, "corsOrigins">;
  redis: RedisTopology;
  rateLimit: { perMinute: number };
  subscriptions: StreamLimits;
}

/** What the API's composition root (src/api/server.ts) opens and hands to the app. */
export interface AppParts {
  config: AppSettings;
  logger: Logger;
  /** The command connection; the app opens its own subscriber connection for request changes. */
  redis: RedisClient;
  /** When the process traces (src/api/tracing.ts): a span per call, and one per GraphQL operation. */
  tracing?: { calls: MiddlewareHandler; operations: GraphQLParts["operationSpans"] };
  /** Which of GraphQL's plugins run: all of them, but where the bench prices them one at a time (bench/graphql-cost.ts). */
  graphqlPlugins?: (all: NamedPlugin[]) => NamedPlugin[];
}

type GraphQLHandler = ReturnType<typeof createGraphQLHandler>;

/** The API as a fetch handler: /graphql for GraphQL (GraphiQL in a browser), /api/* for the dotted routes. */
export function createApp({ config, logger, redis, tracing, graphqlPlugins = (all) => all }: AppParts) {
  const feed = subscribeRequestChanges(config.redis, logger);
  const stopPublishing = publishRequestChanges(redis, logger);
  const streams = subscriptionStreams(config.subscriptions, redis, logger);
  const limiter = createRateLimiter(redis, config.rateLimit.perMinute);
  // A key revoked through the API reaches every API process as the CLI's revocations do.
  openKeyRevocations(config.redis);
  const contexts = createRequestContexts(limiter, logger);
  const caller = callerMiddleware(contexts, limiter);
  const links = pageLinks(config.server.publicUrl);
  // GraphQL's calls may also come from a merchant console session, by its cookie (the REST routes' never do).
  const consoleCookie = consoleCookieName(config.server.publicUrl);
  const graphqlContexts = createRequestContexts(limiter, logger, consoleCookie);
  // With a read replica (DATABASE_READ_URL), reads that may lag go to it when it holds the caller's writes.
  const routing = replica && readYourWrites(redis, replica, logger);
  const graphqlParts: GraphQLParts = {
    changes: feed,
    streams: streams.plugin,
    contexts: graphqlContexts,
    limiter,
    logger,
    links,
    console: { documents: consoleDocuments, cookie: consoleCookie, origin: new URL(config.server.publicUrl).origin },
    operationSpans: tracing?.operations,
    readYourWrites: routing,
  };
  const graphqlSettings = { ...config.graphql, corsOrigins: config.server.corsOrigins };
  const yoga = createGraphQLHandler(graphqlParts, graphqlSettings, graphqlPlugins(graphQLPlugins(graphqlParts, graphqlSettings)));
  const app = new Hono();
  app.onError(errorRenderer(logger));
  if (tracing) app.use("*", tracing.calls);
  const calls = trackCalls();
  app.use("*", calls.middleware);
  countCalls(app, new Set(Object.keys(routes)));
  app.use("*", requestLog(logger, config.server.trustedProxies));
  mountGraphQL(app, yoga, config.graphql.graphiql);
  mountProbes(app, redis);
  mountRest(app, caller, links, routing);
  mountQrCodes(app, caller, links);
  const payPage = mountPayPage(app, { limiter, changes: feed, links, logger, publicUrl: config.server.publicUrl });
  mountConsole(app, { limiter, publicUrl: config.server.publicUrl, cookie: consoleCookie });
  app.notFound((c) =>
    c.json({ statusCode: 404, error: "Not Found", message: "Not Found", reason: `No route ${c.req.method} ${c.req.path}` }, 404),
  );

  const closeStreams = () => Promise.all([streams.closeAll(), payPage.closeStreams()]).then(() => undefined);
  return {
    fetch: app.fetch,
    /** Ends every subscription stream open in this process; settles once their places are given back. */
    closeStreams,
    /**
     * Refuses new calls and ends the subscription streams (clients get a `complete` event, and
     * their places in the per-key and per-address bounds are given back); resolves once the calls
     * already running have answered. The process closes its connections only after that (src/api/server.ts).
     */
    stop: async () => {
      const idle = calls.stop();
      await Promise.all([streams.stop(), payPage.closeStreams()]);
      await idle;
    },
    dispose: async () => {
      await closeStreams();
      stopPublishing();
      await yoga.dispose();
      feed.close();
    },
  };
}

/**
 * The subscription streams' bounds (per key and per client address, with Redis leases), and the
 * periodic look that ends the streams of keys revoked meanwhile.
 */
function subscriptionStreams(limits: StreamLimits, redis: RedisClient, logger: Logger) {
  return boundedStreams(createStreamSlots(redis, limits, logger), {
    // While Redis cannot be read, streams stay open; the next look finds the revocation.
    among: (prefixes) =>
      revokedAmong(redis, prefixes).catch((err: unknown) => {
        logger.warn({ err }, "could not look up whether the keys of open subscription streams were revoked");
        return [];
      }),
    everyMs: REVOKED_STREAMS_CHECK_MS,
  });
}

/**
 * Every call gets a request id (the caller's X-Request-Id, or a new one) that its log lines, its
 * audit rows and the webhook it may cause all carry; the response echoes it, and one log line
 * says how the call ended. The client's address is noted for the rate limits and stream bounds.
 */
function requestLog(logger: Logger, trustedProxyRanges: string[]): MiddlewareHandler {
  const trustedProxies = trustedProxyRanges.map((range) => parseAddressRange(range)!);
  return async (c, next) => {
    const requestId = requestIdOf(c.req.raw);
    recordClientAddress(c.req.raw, clientAddress(c, trustedProxies));
    const started = performance.now();
    await next();
    c.res.headers.set("x-request-id", requestId);
    logger.info(
      { requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
      "http request",
    );
  };
}

/** GraphQL at /graphql: its body bound, GraphiQL's page when it is on, and Yoga. */
function mountGraphQL(app: Hono, yoga: GraphQLHandler, graphiql: boolean) {
  app.use("/graphql", graphqlBodyLimit());
  // GraphiQL's page, when it is on: compressed and cached, before Yoga (http/graphiql.ts).
  if (graphiql) app.get("/graphql", graphiqlPage());
  // Yoga answers CORS preflights itself (graphql/yoga.ts). handleRequest, not fetch: fetch races
  // the answer against the Request's abort signal, and reading that signal makes @hono/node-server
  // build an AbortController for every call. A stream still ends when its client goes.
  app.on(["GET", "POST", "OPTIONS"], "/graphql", (c) => yoga.handleRequest(c.req.raw, {}));
}

/** Refuses a GraphQL body over MAX_GRAPHQL_BODY_BYTES with 413, before it is parsed. */
function graphqlBodyLimit(): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    c.json(
      { errors: [{ message: `The body is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes.`, extensions: { code: "BAD_REQUEST" } }] },
      413,
    );
  const streamedBodyLimit = bodyLimit({ maxSize: MAX_GRAPHQL_BODY_BYTES, onError: tooLarge });
  return async (c, next) => {
    // A declared length is checked as it is; only a streamed body is counted as it arrives
    // (counting wraps the body in a stream, a large share of a small call's cost).
    const length = declaredBodyLength(c.req.raw.headers);
    if (length === null) {
      // bodyLimit replaces the Request to count its body: the new one is still this call.
      const original = c.req.raw;
      return streamedBodyLimit(c, () => (carryOver(original, c.req.raw), next()));
    }
    return length > MAX_GRAPHQL_BODY_BYTES ? tooLarge(c) : next();
  };
}

/** What orchestrators and receivers ask without a key: liveness, readiness and the signing keys. */
function mountProbes(app: Hono, redis: RedisClient) {
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/ready", async (c) => {
    const [database, redisUp] = await Promise.all([databaseReachable(), redisReachable(redis)]);
    const ready = database && redisUp;
    return c.json(
      {
        status: ready ? "ready" : "unavailable",
        database: database ? "ok" : "unreachable",
        redis: redisUp ? "ok" : "unreachable",
      },
      ready ? 200 : 503,
    );
  });
  // Receivers verify notifications with these; a rotated-out key stays listed for its overlap.
  app.get("/.well-known/jwks.json", async (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json(await publishedSigningKeys(new Date()));
  });
}

export type App = ReturnType<typeof createApp>;

/**
 * The client's address: the socket's peer, or the client a trusted proxy names (TRUSTED_PROXIES,
 * which src/env.ts has checked); calls made in-process (tests) have none.
 */
function clientAddress(c: Context, trustedProxies: readonly AddressRange[]): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // In-process: no socket.
  }
  return peer ? clientAddressFrom(peer, c.req.header("x-forwarded-for"), trustedProxies) : "local";
}

/** Whether PostgreSQL answers within a second. */
async function databaseReachable(): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 1000).unref());
  return Promise.race([
    databaseAnswers().then(
      () => true,
      () => false,
    ),
    timeout,
  ]);
}
