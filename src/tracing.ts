import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Link,
  type Span,
  type SpanOptions,
} from "@opentelemetry/api";
import type { z } from "zod";
import type { tracingEnv } from "./env.js";

/**
 * What every process shares of tracing: its settings, and the few calls the code makes on the
 * OpenTelemetry API. Until a process starts the SDK (src/tracing-sdk.ts, only when tracing is on)
 * these are the API's no-ops: no span is made and nothing is stored.
 */

/** How a process traces; `exporter: null` is off. */
export interface TracingSettings {
  exporter: "otlp" | "console" | null;
  /** Where OTLP spans are posted; unset: the standard http://localhost:4318/v1/traces. */
  otlpUrl?: string;
  serviceName: string;
  /** Milliseconds between exports. */
  exportDelayMs: number;
  /** The share of API calls (and of deliveries of untraced calls) whose trace is kept, from 0 to 1. */
  sampleRatio: number;
}

/** The tracing settings of a process from its parsed environment (src/env.ts tracingEnv). */
export function tracingSettings(env: z.output<typeof tracingEnv>, serviceName: string): TracingSettings {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const otlpUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base && `${base}/v1/traces`);
  const chosen = env.OTEL_TRACES_EXPORTER ?? (otlpUrl ? "otlp" : "none");
  return {
    exporter: chosen === "none" ? null : chosen,
    ...(otlpUrl && { otlpUrl }),
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    exportDelayMs: env.OTEL_BSP_SCHEDULE_DELAY,
    sampleRatio: env.OTEL_TRACES_SAMPLER === "parentbased_traceidratio" ? env.OTEL_TRACES_SAMPLER_ARG : 1,
  };
}

/** The tracer of the project's own spans (the webhook delivery's). */
export const tracer = trace.getTracer("payreq");

/** Runs `work` in a new span of the project's tracer, the current one meanwhile; a throw marks it failed. */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The W3C `traceparent` of the span in progress, stored with work that another process picks up
 * (an outbox row); null when there is none (tracing off, or no call in progress).
 */
export function currentTraceparent(): string | null {
  if (!trace.getActiveSpan()) return null;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** A span link to the span a stored `traceparent` names; none for none, or for a malformed one. */
export function spanLinksTo(traceparent: string | null): Link[] {
  if (!traceparent) return [];
  const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  return linked && isSpanContextValid(linked) ? [{ context: linked }] : [];
}

/** pino's mixin in a traced process: a line logged within a span that is kept carries its trace and span ids. */
export function activeTraceIds(): { trace_id?: string; span_id?: string; trace_flags?: string } {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: `0${traceFlags.toString(16)}` };
}
