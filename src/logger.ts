import { pino } from "pino";
import { config } from "./config.js";

/** Structured JSON logs. API keys and tokens are redacted wherever they appear by these names. */
const options = {
  level: config.log.level,
  redact: { paths: ["apiKey", "*.apiKey", "headers['x-api-key']", "token", "*.token"], censor: "[redacted]" },
};

export const logger = pino(options);

/** For command-line tools, whose standard output is their answer: logs go to standard error. */
export const stderrLogger = () => pino(options, pino.destination(2));

export type Logger = typeof logger;
