import { createRequire } from "node:module";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import type { TracingSettings } from "./tracing.js";

export interface Tracing {
  /** Exports every span ended so far. */
  flush(): Promise<void>;
  /** Exports what is left and stops; spans ended afterwards are dropped. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry in this process: the W3C trace context, the exporter the settings choose
 * (batched), and the database's instrumentations: a span per Prisma operation and one per SQL
 * statement, made only within a traced call (a worker's idle polling makes none). Composition roots
 * import this module only when tracing is on, so a process without it loads none of the SDK.
 * `exporter` replaces the configured one, its spans handed over as each ends (tests).
 */
export function startTracing(settings: TracingSettings, exporter?: SpanExporter): Tracing {
  const configured =
    settings.exporter === "console"
      ? new ConsoleSpanExporter()
      : new OTLPTraceExporter(settings.otlpUrl ? { url: settings.otlpUrl } : {});
  const provider = new TracerProvider({
    // The standard OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over the process's own name.
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    spanProcessors: [
      exporter
        ? new SimpleSpanProcessor({ exporter })
        : new BatchSpanProcessor({ exporter: configured, scheduledDelayMillis: settings.exportDelayMs }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    instrumentations: [new PgInstrumentation({ requireParentSpan: true }), new PrismaInstrumentation()],
  });
  // The pg instrumentation patches the prototypes of pg's Client and Pool when `pg` is required.
  // This project's modules import pg as an ES module, which shares CommonJS's module cache: requiring
  // it here, once the hooks are registered, patches the very classes already in use.
  const require = createRequire(import.meta.url);
  require("pg");
  require("pg-pool");
  return { flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
