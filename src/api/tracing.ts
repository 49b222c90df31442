import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { useOperationSpans } from "../graphql/tracing.js";
import { tracedCalls } from "../http/tracing.js";
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
