import { apiEnv, parseEnv, publicUrlOf } from "../env.js";
import { listenHost } from "../listen-address.js";
import { redisTopology } from "../redis-connection.js";
import { tracingSettings } from "../tracing.js";
import { webhookCallSettings } from "../domain/webhooks/call-settings.js";

/**
 * The API process's configuration, from its environment (strictly: src/env.ts). Read by the API's
 * composition root (src/api/server.ts), which hands each part to what needs it.
 */
export function loadApiConfig(env = parseEnv(apiEnv)) {
  const tracing = tracingSettings(env, "payreq-api");
  return {
    env: env.NODE_ENV,
    server: {
      /** The address it listens on; undefined: every interface. */
      host: listenHost(env),
      port: env.PORT,
      publicUrl: publicUrlOf(env),
      corsOrigins: env.CORS_ORIGINS,
      trustedProxies: env.TRUSTED_PROXIES,
    },
    /** GET /metrics on its own port, on the API's address; null: none (METRICS_PORT=0). */
    metrics: { port: env.METRICS_PORT || null },
    shutdown: { timeoutMs: env.SHUTDOWN_TIMEOUT },
    graphql: {
      graphiql: env.GRAPHIQL ?? env.NODE_ENV !== "production",
      introspection: env.GRAPHQL_INTROSPECTION ?? env.NODE_ENV !== "production",
      webhooks: webhookCallSettings(env),
    },
    db: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      applicationName: "payreq-api",
      preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
      /** A replica for reads that may lag (src/db.ts); undefined: none. */
      readUrl: env.DATABASE_READ_URL,
    },
    /** Which Redis, and where (a single node, a Sentinel group or a Cluster). */
    redis: redisTopology(env),
    rateLimit: { perMinute: env.RATE_LIMIT_PER_MINUTE },
    subscriptions: { perKey: env.SUBSCRIPTIONS_PER_KEY, perAddress: env.SUBSCRIPTIONS_PER_ADDRESS },
    log: { level: env.LOG_LEVEL, pretty: env.NODE_ENV !== "production", traceIds: tracing.exporter !== null },
    tracing,
  };
}

export type ApiConfig = ReturnType<typeof loadApiConfig>;
