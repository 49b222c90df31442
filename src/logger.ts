import { pino } from "pino";
import { config } from "./config.js";

/** Structured JSON logs. API keys and tokens are redacted wherever they appear by these names. */
export const logger = pino({
  level: config.log.level,
  redact: { paths: ["apiKey", "*.apiKey", "headers['x-api-key']", "token", "*.token"], censor: "[redacted]" },
});

export type Logger = typeof logger;
