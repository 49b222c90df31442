/**
 * What the processes' configurations are made of: the parsers of durations, the variables every
 * process reads, and the strict parse. Parsing happens in each process's own config module.
 */
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

/** Variables every process reads: where the data lives and how loudly to log. Each process parses them with its own. */
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
