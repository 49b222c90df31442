import { z } from "zod";
import { parseEnv, sharedEnv } from "./env.js";

/** The API process's configuration, parsed (strictly) when first imported. */
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
  /** Port of GET /metrics (Prometheus), apart from the public port; 0 picks a free one. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Requests per minute per API key unless the key has its own limit (counted in Redis). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(200),
  /** Serve GraphiQL to browsers at /graphql. Default: on except in production. */
  GRAPHIQL: flag.optional(),
  /** Answer introspection queries. Default: on except in production. */
  GRAPHQL_INTROSPECTION: flag.optional(),
});

const env = parseEnv(apiEnv);

export const config = {
  env: env.NODE_ENV,
  server: { port: env.PORT, corsOrigins: env.CORS_ORIGINS },
  metrics: { port: env.METRICS_PORT },
  graphql: {
    graphiql: env.GRAPHIQL ?? env.NODE_ENV !== "production",
    introspection: env.GRAPHQL_INTROSPECTION ?? env.NODE_ENV !== "production",
  },
  db: { url: env.DATABASE_URL, poolSize: 20 },
  redis: { url: env.REDIS_URL },
  rateLimit: { perMinute: env.RATE_LIMIT_PER_MINUTE },
  log: { level: env.LOG_LEVEL },
};
