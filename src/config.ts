import { z } from "zod";

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

/** Variables every process shares: where the data lives and how loudly to log. */
export const sharedEnv = z.object({
  /** PostgreSQL connection string. */
  DATABASE_URL: z.string().url().default("postgresql://postgres@127.0.0.1:5432/payreq"),
  /** Redis connection string (BullMQ queues). */
  REDIS_URL: z.string().url().default("redis://127.0.0.1:6379"),
  /** pino log level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** `production` hides development conveniences. */
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

const flag = z.enum(["true", "false"]).transform((v) => v === "true");

const apiEnv = sharedEnv.extend({
  /** HTTP port of the API (GraphQL at /graphql). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /** Browser origins allowed to call /graphql (comma-separated, e.g. https://dashboard.example); none by default. */
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((text) =>
      text
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  /** Requests per minute per API key unless the key has its own limit (counted in Redis). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(200),
  /** Serve GraphiQL to browsers at /graphql. Default: on except in production. */
  GRAPHIQL: flag.optional(),
  /** Answer introspection queries. Default: on except in production. */
  GRAPHQL_INTROSPECTION: flag.optional(),
});

/**
 * Parses an environment with `schema`, or prints every problem and exits 1:
 * a process must not start half-configured.
 */
export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.output<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  console.error(`Invalid environment:\n${problems.join("\n")}`);
  process.exit(1);
}

const env = parseEnv(apiEnv);

export const config = {
  env: env.NODE_ENV,
  server: { port: env.PORT, corsOrigins: env.CORS_ORIGINS },
  graphql: {
    graphiql: env.GRAPHIQL ?? env.NODE_ENV !== "production",
    introspection: env.GRAPHQL_INTROSPECTION ?? env.NODE_ENV !== "production",
  },
  db: { url: env.DATABASE_URL },
  redis: { url: env.REDIS_URL },
  rateLimit: { perMinute: env.RATE_LIMIT_PER_MINUTE },
  log: { level: env.LOG_LEVEL },
};
