import { createRequire } from "node:module";
import { context, propagation, SpanKind, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { setGlobalErrorHandler, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import {
  detectResources,
  resourceAttributesEnvDetector,
  resourceFromAttributes,
  serviceNameEnvDetector,
} from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import type { Logger } from "./logger.js";
import type { TracingSettings } from "./tracing.js";

/**
 * A trace starts only where work arrives: an API call (a server span), or a delivery attempt (a
 * consumer span). The statements of a process's own background work (the worker's polling and
 * sweeps, the key store) would otherwise each start a trace of their own. A delivery is kept when
 * the call it links to was; a call, and a delivery of an untraced call, by the ratio. Within a
 * trace, spans follow their parent's decision (a caller's `traceparent` included).
 */
export function arrivalsSampler(ratio: number): Sampler {
  const byRatio = new TraceIdRatioBasedSampler(ratio);
  const kept = { decision: SamplingDecision.RECORD_AND_SAMPLED };
  const dropped = { decision: SamplingDecision.NOT_RECORD };
  const root: Sampler = {
    shouldSample: (context, traceId, _name, kind, _attributes, links) => {
      if (kind !== SpanKind.SERVER && kind !== SpanKind.CONSUMER) return dropped;
      const linked = links[0]?.context;
      if (linked) return linked.traceFlags & TraceFlags.SAMPLED ? kept : dropped;
      return byRatio.shouldSample(context, traceId);
    },
    toString: () => `Arrivals{${ratio}}`,
  };
  return new ParentBasedSampler({ root });
}

/** How often at most a process says that its spans could not be exported. */
export const EXPORT_FAILURE_REPORT_MS = 60_000;

/**
 * What the SDK's errors (a collector that is down or refuses a batch) come to: a warning at most
 * once a minute. Tracing goes on and calls are not held up; the batches meanwhile are dropped.
 */
export function exportFailureReporter(logger: Logger, now: () => number = Date.now) {
  let reportedAt = -Infinity;
  let since = 0;
  return (error: unknown) => {
    since += 1;
    if (now() - reportedAt < EXPORT_FAILURE_REPORT_MS) return;
    reportedAt = now();
    const message = error instanceof Error ? error.message : String(error);
    logger.warn({ err: { message }, failures: since }, "spans could not be exported; they are dropped and tracing goes on");
    since = 0;
  };
}

/** The exporter OTEL_TRACES_EXPORTER chooses: spans on standard output, or OTLP over HTTP. */
const configuredExporter = (settings: TracingSettings): SpanExporter =>
  settings.exporter === "console"
    ? new ConsoleSpanExporter()
    : new OTLPTraceExporter(settings.otlpUrl ? { url: settings.otlpUrl } : {});

export interface Tracing {
  /** Exports every span ended so far. */
  flush(): Promise<void>;
  /** Exports what is left and stops; spans ended afterwards are dropped. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry in this process: the W3C trace context, the exporter the settings choose
 * (batched), the sampler, and the database's instrumentations: a span per Prisma operation and
 * one per SQL statement (not per pool checkout), kept only within a traced call or delivery.
 * Composition roots import this module only when tracing is on, so a process without it loads
 * none of the SDK. `exporter` replaces the configured one, its spans handed over as each ends (tests).
 */
export function startTracing(settings: TracingSettings, logger: Logger, exporter?: SpanExporter): Tracing {
  const provider = new TracerProvider({
    // The standard OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over the process's own name.
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }).merge(
      detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }),
    ),
    sampler: arrivalsSampler(settings.sampleRatio),
    spanProcessors: [
      exporter
        ? new SimpleSpanProcessor({ exporter })
        : new BatchSpanProcessor({ exporter: configuredExporter(settings), scheduledDelayMillis: settings.exportDelayMs }),
    ],
  });
  setGlobalErrorHandler(exportFailureReporter(logger));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    instrumentations: [new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }), new PrismaInstrumentation()],
  });
  // The pg instrumentation patches the prototypes of pg's Client and Pool when `pg` is required.
  // This project's modules import pg as an ES module, which shares CommonJS's module cache: requiring
  // it here, once the hooks are registered, patches the very classes already in use.
  const require = createRequire(import.meta.url);
  require("pg");
  createRequire(require.resolve("pg"))("pg-pool");
  return { flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
