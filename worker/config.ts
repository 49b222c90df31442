import { parseEnv, workerEnv } from "../src/env.js";
import { listenHost } from "../src/listen-address.js";
import { redisTopology } from "../src/redis-connection.js";
import { tracingSettings } from "../src/tracing.js";

/** The worker process's configuration, from its environment (strictly: src/env.ts), read by its composition root. */
export function loadWorkerConfig(env = parseEnv(workerEnv)) {
  const tracing = tracingSettings(env, "payreq-worker");
  return {
    db: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      applicationName: "payreq-worker",
      preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
      /** The LISTEN for new outbox rows: a session of its own, which a transaction-mode pooler cannot keep. */
      directUrl: env.DATABASE_DIRECT_URL ?? env.DATABASE_URL,
    },
    log: { level: env.LOG_LEVEL, pretty: env.NODE_ENV !== "production", traceIds: tracing.exporter !== null },
    tracing,
    /** Which Redis, and where (a single node, a Sentinel group or a Cluster). */
    redis: redisTopology(env),
    queues: { prefix: env.QUEUE_PREFIX },
    expiry: { sweepIntervalMs: env.EXPIRY_SWEEP_INTERVAL },
    retention: {
      sweepIntervalMs: env.RETENTION_SWEEP_INTERVAL,
      webhookRetentionMs: env.WEBHOOK_RETENTION,
      activityRetentionMs: env.ACTIVITY_RETENTION ?? null,
      /** Rows per statement: each batch is a short transaction of its own. */
      batchSize: 1000,
    },
    metrics: { port: env.WORKER_METRICS_PORT ?? null, host: listenHost(env) },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT,
    health: { file: env.WORKER_HEALTH_FILE, everyMs: 10_000 },
    webhooks: {
      retryDelaysMs: env.WEBHOOK_RETRY_DELAYS,
      timeoutMs: env.WEBHOOK_TIMEOUT,
      issuer: env.WEBHOOK_ISSUER,
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      signingKey: env.WEBHOOK_SIGNING_KEY,
      signingKeyDir: env.WEBHOOK_SIGNING_KEY_DIR,
      keyOverlapMs: env.WEBHOOK_KEY_OVERLAP,
      /** Outside production a missing key file is replaced by a generated development key. */
      generateMissingKey: env.NODE_ENV !== "production",
      /** How long the worker reuses the current private key before asking the database again (a rotation shows within this). */
      keyCacheMs: 5_000,
      reconcileIntervalMs: env.WEBHOOK_RECONCILE_INTERVAL,
      endpointDisableAfterMs: env.WEBHOOK_ENDPOINT_DISABLE_AFTER,
      concurrency: env.WEBHOOK_CONCURRENCY,
    },
  };
}

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
