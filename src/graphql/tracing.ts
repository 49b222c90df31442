import { useOpenTelemetry } from "@envelop/opentelemetry";
import { SpanKind, trace } from "@opentelemetry/api";

/**
 * A span per GraphQL operation, named after its type and name (`mutation.PayOrder`), beneath the
 * call's span; its statements' spans are its children. No variables, results or resolver spans.
 */
export const useOperationSpans = () =>
  useOpenTelemetry(
    { resolvers: false, variables: false, result: false },
    trace.getTracerProvider(),
    SpanKind.INTERNAL,
    {},
    "payreq-graphql",
  );
