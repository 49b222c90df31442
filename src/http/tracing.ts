import { httpInstrumentationMiddleware } from "@hono/otel";
import { routePath } from "hono/route";

/**
 * A span per call (OpenTelemetry), the root of the call's trace unless the caller sent a
 * `traceparent`: named after the dotted operation for the REST routes, the method and route
 * otherwise (`POST /graphql`, whose operation has a span of its own: graphql/tracing.ts).
 */
export const tracedCalls = () =>
  httpInstrumentationMiddleware({
    captureActiveRequests: false,
    spanNameFactory: (c) => (c.var as { operation?: string }).operation ?? `${c.req.method} ${routePath(c)}`,
  });
