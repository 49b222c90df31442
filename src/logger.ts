import { createRequire } from "node:module";
import { pino, type DestinationStream } from "pino";
import { activeTraceIds } from "./tracing.js";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface LogSettings {
  level: LogLevel;
  /** Human-readable lines when writing to a terminal (development); JSON lines otherwise. */
  pretty?: boolean;
  /** Each line logged within a traced call carries its `trace_id` and `span_id` (when tracing is on). */
  traceIds?: boolean;
}

/** Structured JSON logs. API keys and tokens are redacted wherever they appear by these names. */
const options = (settings: LogSettings, name?: string) => ({
  level: settings.level,
  ...(name && { name }),
  ...(settings.traceIds && { mixin: activeTraceIds }),
  redact: { paths: ["apiKey", "*.apiKey", "headers['x-api-key']", "token", "*.token"], censor: "[redacted]" },
});

/**
 * pino-pretty, written synchronously to `fd`, when it is a terminal and the package is installed
 * (it is a development dependency: production images have JSON only).
 */
function prettyStream(fd: 1 | 2): DestinationStream | undefined {
  const isTerminal = fd === 1 ? process.stdout.isTTY : process.stderr.isTTY;
  if (!isTerminal) return undefined;
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
    return pretty({ destination: fd, sync: true, singleLine: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l" });
  } catch {
    return undefined;
  }
}

function build(settings: LogSettings, name: string | undefined, fd: 1 | 2, destination?: DestinationStream) {
  const stream = destination ?? ((settings.pretty && prettyStream(fd)) || (fd === 2 ? pino.destination(2) : undefined));
  return stream ? pino(options(settings, name), stream) : pino(options(settings, name));
}

/** A process's logger, at the level its own configuration gives, named for the process; standard output unless given a destination. */
export const createLogger = (settings: LogSettings, name?: string, destination?: DestinationStream) =>
  build(settings, name, 1, destination);

/** For command-line tools, whose standard output is their answer: logs go to standard error. */
export const stderrLogger = (settings: LogSettings) => build(settings, undefined, 2);

export type Logger = ReturnType<typeof createLogger>;
