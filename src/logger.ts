import { pino } from "pino";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** Structured JSON logs. API keys and tokens are redacted wherever they appear by these names. */
const options = (level: LogLevel) => ({
  level,
  redact: { paths: ["apiKey", "*.apiKey", "headers['x-api-key']", "token", "*.token"], censor: "[redacted]" },
});

/** A process's logger, at the level its own configuration gives. */
export const createLogger = (level: LogLevel) => pino(options(level));

/** For command-line tools, whose standard output is their answer: logs go to standard error. */
export const stderrLogger = (level: LogLevel) => pino(options(level), pino.destination(2));

export type Logger = ReturnType<typeof createLogger>;
