import { useOpenTelemetry } from "@envelop/opentelemetry";
import { httpInstrumentationMiddleware } from "@hono/otel";
import { SpanKind, trace } from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { routePath } from "hono/route";
import type { Logger } from "../logger.js";
import type { TracingSettings } from "../tracing.js";
import { startTracing } from "../tracing-sdk.js";

/**
 * The API's tracing: the SDK, and the spans of its calls (Hono) and of GraphQL operations (Yoga),
 * which the root hands to the app. Imported only when tracing is on: a process without it loads
 * none of these packages (about 30 MiB).
 */
export function startApiTracing(settings: TracingSettings, logger: Logger, exporter?: SpanExporter) {
  return { sdk: startTracing(settings, logger, exporter), spans: { calls: tracedCalls(), operations: useOperationSpans() } };
}

/**
 * A span per call, the root of the call's trace unless the caller sent a `traceparent`: named after
 * the dotted operation for the REST routes, the method and route otherwise (`POST /graphql`, whose
 * operation has a span of its own, below).
 */
const tracedCalls = () =>
  httpInstrumentationMiddleware({
    captureActiveRequests: false,
    spanNameFactory: (c) => (c.var as { operation?: string }).operation ?? `${c.req.method} ${routePath(c)}`,
  });

/**
 * A span per GraphQL operation, named after its type and name (`mutation.PayOrder`), beneath the
 * call's span; its statements' spans are its children. No variables, results or resolver spans.
 */
const useOperationSpans = () =>
  useOpenTelemetry(
    { resolvers: false, variables: false, result: false },
    trace.getTracerProvider(),
    SpanKind.INTERNAL,
    {},
    "payreq-graphql",
  );
