/**
 * Every variable the processes read, described once: the API's, the worker's, the operator
 * CLI's and the migration step's schemas, the parsers they share, and the strict parse, which reads the settings file first
 * (env-file.ts). Each process parses its own schema in its own config module; `npm start` checks them
 * all before it starts anything, and a test checks the README's configuration table against them.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { loadEnvFile } from "./env-file.js";

/** Parses a duration such as `500ms`, `10s`, `2m`, `1h` (a bare number is milliseconds). */
export const duration = z
  .string()
  .trim()
  .regex(/^\d+(ms|s|m|h|d)?$/, "a duration such as 500ms, 10s, 2m or 1h")
  .transform((text) => {
    const [, value, unit = "ms"] = /^(\d+)(ms|s|m|h|d)?$/.exec(text)!;
    const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit]!;
    return Number(value) * factor;
  });

/** Parses comma-separated durations such as `2m,10m,1h`; a malformed one is an issue at its index, not a throw. */
export const durations = z
  .string()
  .transform((text) => text.split(","))
  .pipe(z.array(duration));

/** A URL with one of these schemes (`new URL` accepts far more than a database driver does). */
function urlOf(protocols: string[], expected: string) {
  return z.string().refine((text) => URL.canParse(text) && protocols.includes(new URL(text).protocol), `expected ${expected}`);
}

/** A host and a port, as `host:port` (an IPv6 address in brackets: `[::1]:6379`). */
export interface HostPort {
  host: string;
  port: number;
}

/** Comma-separated `host:port` pairs, at least one. */
const hostPorts = z
  .string()
  .trim()
  .min(1)
  .transform((text, ctx): HostPort[] => {
    const parsed: HostPort[] = [];
    for (const item of text.split(",").map((part) => part.trim())) {
      const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(item);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) {
        ctx.addIssue({ code: "custom", message: `"${item}" is not host:port, such as 127.0.0.1:26379` });
        return z.NEVER;
      }
      parsed.push({ host: match[1]!.replace(/^\[|\]$/g, ""), port });
    }
    return parsed;
  });

/** Variables every process reads: where the data lives and how loudly to log. Each process parses them with its own. */
export const sharedEnv = z.object({
  /** The settings file read at start (see env-file.ts), relative to the working directory; empty: none. Set it in the environment. */
  ENV_FILE: z.string().default(".env"),
  /** PostgreSQL connection string. */
  DATABASE_URL: urlOf(["postgresql:", "postgres:"], "a PostgreSQL URL such as postgresql://user@host:5432/payreq").default(
    "postgresql://postgres@127.0.0.1:5432/payreq",
  ),
  /** A file holding the password of DATABASE_URL's role (a secret), put into DATABASE_URL. */
  DATABASE_PASSWORD_FILE: z.string().optional(),
  /**
   * PostgreSQL for what a transaction-mode pooler cannot carry: the worker's LISTEN, migrations,
   * session advisory locks. Default: DATABASE_URL. Set it when DATABASE_URL names a pooler.
   */
  DATABASE_DIRECT_URL: urlOf(
    ["postgresql:", "postgres:"],
    "a PostgreSQL URL such as postgresql://user@host:5432/payreq",
  ).optional(),
  /** `false`: no named prepared statements, as a transaction-mode pooler (PgBouncer) needs. */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /**
   * Redis connection string: rate limits and request changes (API), queues (worker), key
   * revocations (CLI). With REDIS_SENTINELS or REDIS_CLUSTER_NODES only its user, password, `rediss:`
   * scheme (TLS) and database number are used.
   */
  REDIS_URL: urlOf(["redis:", "rediss:"], "a Redis URL such as redis://host:6379").default("redis://127.0.0.1:6379"),
  /** A Sentinel group's sentinels, comma-separated host:port; with REDIS_SENTINEL_NAME. */
  REDIS_SENTINELS: hostPorts.optional(),
  /** The name of the master the sentinels of REDIS_SENTINELS watch. */
  REDIS_SENTINEL_NAME: z.string().trim().min(1).optional(),
  /** A Redis Cluster's seed nodes, comma-separated host:port; the rest are discovered. */
  REDIS_CLUSTER_NODES: hostPorts.optional(),
  /** pino log level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** `production` hides development conveniences. */
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

/** Where the worker's signing keys come from; the operator CLI reads them too, to rotate keys. */
export const signingKeyEnv = z.object({
  /** The signing key: a PKCS#8 PEM, or a path to one. Unset: keys live in WEBHOOK_SIGNING_KEY_DIR. */
  WEBHOOK_SIGNING_KEY: z.string().optional(),
  /** Where development keys (and keys made by `signing-key rotate`) are kept. Never commit it. */
  WEBHOOK_SIGNING_KEY_DIR: z.string().default(".data/signing-keys"),
  /** How long a replaced signing key stays published in the JWKS. */
  WEBHOOK_KEY_OVERLAP: duration.default(48 * 3_600_000),
});

/**
 * OpenTelemetry traces (src/tracing-sdk.ts), under the standard variable names, read by the API and
 * the worker. Tracing is off unless an exporter is chosen: OTEL_TRACES_EXPORTER, or an OTLP endpoint.
 * The OTLP exporter also reads the standard OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and _COMPRESSION itself.
 */
export const tracingEnv = z.object({
  /** Where spans go: `otlp` (OTLP over HTTP, protobuf), `console` (standard output) or `none`. Unset: `otlp` when an OTLP endpoint is set, else no tracing. */
  OTEL_TRACES_EXPORTER: z.enum(["otlp", "console", "none"]).optional(),
  /** The OTLP receiver's base URL, such as http://127.0.0.1:4318 (spans go to its /v1/traces). Setting it turns tracing on. */
  OTEL_EXPORTER_OTLP_ENDPOINT: urlOf(["http:", "https:"], "an http or https URL such as http://127.0.0.1:4318").optional(),
  /** The URL spans are posted to, when it is not <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces. Setting it turns tracing on. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: urlOf(
    ["http:", "https:"],
    "an http or https URL such as http://127.0.0.1:4318/v1/traces",
  ).optional(),
  /** The OTLP protocol: `http/protobuf`, the standard default, is the one built in. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .literal("http/protobuf", { error: "only http/protobuf is built in (most collectors take it on port 4318)" })
    .optional(),
  /** The `service.name` of the spans; default `payreq-api` for the API and `payreq-worker` for the worker. */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  /** Milliseconds between exports of the spans ended meanwhile. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).default(5_000),
  /** Which calls are traced: `parentbased_always_on` (all) or `parentbased_traceidratio` (the share OTEL_TRACES_SAMPLER_ARG gives). */
  OTEL_TRACES_SAMPLER: z.enum(["parentbased_always_on", "parentbased_traceidratio"]).default("parentbased_always_on"),
  /** With `parentbased_traceidratio`: the share of calls traced, from 0 to 1. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
});

/** Comma-separated items, trimmed, empty ones dropped; none by default. */
const commaList = z
  .string()
  .default("")
  .transform((text) =>
    text
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** An IP address as Node reads one (no short forms such as 10.1), or one with a prefix length: 10.0.0.0/8, fd00::/8. */
function isAddressOrRange(text: string): boolean {
  const [address = "", prefix, ...rest] = text.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

const flag = z.enum(["true", "false"]).transform((v) => v === "true");

/** Read by the API and the worker alike: see the contract's "Stopping". */
const shutdownTimeout = duration.default(10_000);

/**
 * HOST, the address the API and the metrics ports listen on (src/listen-address.ts). Unset: 127.0.0.1
 * outside production, so `npm start` and `npm run dev` serve GraphiQL, the demo keys and metrics to
 * this machine only; in production (the image and compose set NODE_ENV=production) every interface,
 * which a container needs to be reached at all, and which its published ports then limit.
 */
const host = z
  .string()
  .trim()
  .refine(
    (text) => isIP(text) !== 0,
    "an IP address of this machine, such as 127.0.0.1, or 0.0.0.0 (every IPv4 interface) or :: (every interface)",
  )
  .optional();

/**
 * Which Redis: REDIS_URL alone (a single node), or with REDIS_SENTINELS and REDIS_SENTINEL_NAME
 * (a Sentinel group), or with REDIS_CLUSTER_NODES (a Cluster); never both of the latter.
 */
function redisTopologyRules(
  env: { REDIS_SENTINELS?: HostPort[]; REDIS_SENTINEL_NAME?: string; REDIS_CLUSTER_NODES?: HostPort[] },
  ctx: z.RefinementCtx,
) {
  if (env.REDIS_SENTINELS && env.REDIS_CLUSTER_NODES)
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_CLUSTER_NODES"],
      message: "set REDIS_SENTINELS or REDIS_CLUSTER_NODES, not both",
    });
  if (env.REDIS_SENTINELS && !env.REDIS_SENTINEL_NAME)
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_SENTINEL_NAME"],
      message: "required with REDIS_SENTINELS: the name of the master the sentinels watch",
    });
  if (env.REDIS_SENTINEL_NAME && !env.REDIS_SENTINELS)
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_SENTINELS"],
      message: "required with REDIS_SENTINEL_NAME: the sentinels' host:port list",
    });
}

/**
 * Where webhooks may go and how long one may take: the worker sends them; the API and the CLI
 * register endpoints under the same address rules and wait on a test event's attempt.
 */
export const webhookDestinationEnv = z.object({
  /** A webhook that has not answered within this counts as failed. */
  WEBHOOK_TIMEOUT: duration.default(10_000),
  /** Allow webhooks to loopback, private, link-local and multicast addresses (development and tests only). */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
});

/** The API's and the worker's connections to PostgreSQL. */
const databasePoolEnv = z.object({
  /**
   * Connections each API and worker process opens to PostgreSQL at most (and as many to
   * DATABASE_READ_URL's replica). Every process counts against the server's max_connections. At
   * least 2: a worker generating its first signing key holds a lock on one while it publishes on another.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(1000).default(20),
});

/**
 * Where the API is reached, which the API and the CLI (its console sign-in links) read alike:
 * publicUrlOf gives the one address.
 */
export const publicAddressEnv = z.object({
  /** HTTP port of the API (GraphQL at /graphql). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /**
   * Where users reach the service (scheme, host, port and any path prefix), for the addresses it
   * gives out: a request's pay page is `<PUBLIC_URL>/pay/<requestCode>`. Default `http://localhost:<PORT>`.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. https://pay.example.com" })
    .refine((url) => !/[?#]/.test(url), "must not have a query or fragment")
    .optional(),
});

/** PUBLIC_URL without a trailing slash, or `http://localhost:<PORT>`. */
export const publicUrlOf = (env: { PUBLIC_URL?: string | undefined; PORT: number }) =>
  (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");

/** The API process: `src/api/config.ts`. */
export const apiEnv = sharedEnv
  .extend(databasePoolEnv.shape)
  .extend(tracingEnv.shape)
  .extend({
    /**
     * A PostgreSQL replica for reads that may lag (lists, dashboard queries, the audit trail);
     * unset: every read goes to DATABASE_URL.
     */
    DATABASE_READ_URL: urlOf(
      ["postgresql:", "postgres:"],
      "a PostgreSQL URL such as postgresql://user@replica:5432/payreq",
    ).optional(),
    /** How many API processes `npm start`, `start:prod` and the image run on PORT; default: one per core but one. */
    API_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
    /** How long a stopping API lets the calls in flight finish before it cuts them off. */
    SHUTDOWN_TIMEOUT: shutdownTimeout,
    /** The address the API and its metrics port listen on; default 127.0.0.1, or every interface when NODE_ENV=production. */
    HOST: host,
    ...publicAddressEnv.shape,
    /** Browser origins allowed to call /graphql (comma-separated, e.g. https://dashboard.example); none by default. */
    CORS_ORIGINS: commaList,
    /**
     * Proxies in front of the API (comma-separated addresses or CIDR ranges) whose X-Forwarded-For
     * names the client: per-address limits then count the client, not the proxy. None by default.
     */
    TRUSTED_PROXIES: commaList.pipe(
      z.array(z.string().refine(isAddressOrRange, "an IP address or a CIDR range such as 10.0.0.0/8")),
    ),
    /** Port of GET /metrics (Prometheus), apart from the public port, on HOST; 0: no metrics port. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    /** Requests per minute per API key unless the key has its own limit (counted in Redis). */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(200),
    /** Subscription streams (server-sent events) one API key may hold open at once, across all API processes. */
    SUBSCRIPTIONS_PER_KEY: z.coerce.number().int().min(1).default(20),
    /** Subscription streams one client address may hold open at once, across all API processes. */
    SUBSCRIPTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
    /** Serve GraphiQL to browsers at /graphql. Default: on except in production. */
    GRAPHIQL: flag.optional(),
    /** Answer introspection queries. Default: on except in production. */
    GRAPHQL_INTROSPECTION: flag.optional(),
  })
  .extend(webhookDestinationEnv.shape)
  .superRefine(redisTopologyRules);

/** The worker process: `worker/config.ts`. */
export const workerEnv = sharedEnv
  .extend(databasePoolEnv.shape)
  .extend(signingKeyEnv.shape)
  .extend(webhookDestinationEnv.shape)
  .extend(tracingEnv.shape)
  .extend({
    /** How often overdue requests are stored as expired. */
    EXPIRY_SWEEP_INTERVAL: duration.default(10_000),
    /**
     * Prefix of the worker's BullMQ keys in Redis, so several deployments can share one Redis. On a
     * Redis Cluster give it a hash tag, e.g. `{payreq}`: BullMQ needs all of a queue's keys in one slot.
     */
    QUEUE_PREFIX: z
      .string()
      .regex(/^(?:[\w:-]+|\{[\w:-]+\})$/, "letters, digits, _, : and -, or those in braces (a Redis Cluster hash tag)")
      .default("payreq"),
    /** How long a stopping worker lets the jobs in flight finish before it cuts them off. */
    SHUTDOWN_TIMEOUT: shutdownTimeout,
    /** Delays between webhook attempts, each counted from the previous attempt (7 delays: 8 attempts). */
    WEBHOOK_RETRY_DELAYS: durations.prefault("2m,10m,15m,1h,2h,6h,11h"),
    /** The `iss` claim of notifications. */
    WEBHOOK_ISSUER: z.string().min(1).default("payreq"),
    /** An endpoint whose every attempt has failed for this long is disabled (its merchant enables it again). */
    WEBHOOK_ENDPOINT_DISABLE_AFTER: duration.default(3 * 86_400_000),
    /** How often the worker polls the outbox for due events; a job given longer ago than this and never run is given again. */
    WEBHOOK_RECONCILE_INTERVAL: duration.default(30_000),
    /** A file the worker rewrites every 10 s while PostgreSQL and Redis answer, for a container health check (worker/health-check.ts); unset: none. */
    WORKER_HEALTH_FILE: z.string().optional(),
    /** Webhook attempts in flight at once per worker process, shared out between merchants (docs/api.md). */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(200),
    /** Finished webhook deliveries (delivered, exhausted, refused) and their attempts are deleted this long after they last changed. */
    WEBHOOK_RETENTION: duration.default(90 * 86_400_000),
    /** Activity (the audit trail) is deleted this long after it was written; unset: kept for good. */
    ACTIVITY_RETENTION: duration.optional(),
    /** How often the worker runs the retention sweeps (expired idempotency keys, old webhook deliveries, old activity). */
    RETENTION_SWEEP_INTERVAL: duration.default(3_600_000),
    /** The address the worker's metrics port listens on; default 127.0.0.1, or every interface when NODE_ENV=production. */
    HOST: host,
    /** Port of the worker's GET /metrics (Prometheus: retention sweeps), on HOST; 0 picks a free one; unset: none. */
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  })
  .superRefine((env, ctx) => {
    redisTopologyRules(env, ctx);
    // BullMQ's scripts touch several keys of a queue at once, which a Cluster allows only within one slot.
    if (env.REDIS_CLUSTER_NODES && !/^\{[\w:-]+\}$/.test(env.QUEUE_PREFIX))
      ctx.addIssue({
        code: "custom",
        path: ["QUEUE_PREFIX"],
        message: `on a Redis Cluster (REDIS_CLUSTER_NODES) it must be a hash tag such as {${env.QUEUE_PREFIX.replace(/[{}]/g, "")}}`,
      });
  });

/** The operator CLI (`src/cli/admin.ts`): the database, the signing keys it rotates, and the API's address (its console links). */
export const cliEnv = sharedEnv
  .omit({ NODE_ENV: true })
  .extend(publicAddressEnv.shape)
  .extend(signingKeyEnv.shape)
  .extend(webhookDestinationEnv.shape)
  .superRefine(redisTopologyRules);

/** The migration step (`npm run db:deploy`, the image's migration command): `scripts/start/migrate.ts`. */
export const migrationEnv = sharedEnv
  .pick({ ENV_FILE: true, DATABASE_URL: true, DATABASE_PASSWORD_FILE: true, DATABASE_DIRECT_URL: true })
  .extend({
    /**
     * How long the migration step waits for PostgreSQL to accept connections (a server still
     * starting, as on a container's first start) before it gives up; 0: not at all.
     */
    DATABASE_WAIT_TIMEOUT: duration.default(60_000),
  });

/** Which process reads which variables. */
export const processEnvs = { API: apiEnv, worker: workerEnv, CLI: cliEnv, migration: migrationEnv } as const;

/**
 * Parses the process's environment, after reading its settings file (env-file.ts), or a given
 * `env` as it is; on a problem it prints every one and exits 1: a process must not start
 * half-configured.
 */
export function parseEnv<T extends z.ZodType>(schema: T, env?: NodeJS.ProcessEnv): z.output<T> {
  if (!env) {
    try {
      loadEnvFile();
    } catch (err) {
      console.error(`Invalid environment: ${(err as Error).message}`);
      process.exit(1);
    }
  }
  const parsed = schema.safeParse(env ?? process.env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  console.error(`Invalid environment:\n${problems.join("\n")}`);
  process.exit(1);
}
