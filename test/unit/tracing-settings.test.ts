import { ROOT_CONTEXT, SpanKind, trace, TraceFlags, type SpanContext } from "@opentelemetry/api";
import { SamplingDecision } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createLogger } from "../../src/logger.js";
import { arrivalsSampler, EXPORT_FAILURE_REPORT_MS, exportFailureReporter } from "../../src/tracing-sdk.js";
import { loadApiConfig } from "../../src/api/config.js";
import { apiEnv, workerEnv } from "../../src/env.js";
import { loadWorkerConfig } from "../../worker/config.js";

const api = (env: Record<string, string>) => loadApiConfig(apiEnv.parse(env));
const worker = (env: Record<string, string>) => loadWorkerConfig(workerEnv.parse(env));

describe("tracing settings", () => {
  it("are off unless an exporter is chosen, and then each line a process logs in a span names it", () => {
    for (const load of [api, worker]) {
      expect(load({}).tracing.exporter).toBeNull();
      expect(load({}).log.traceIds).toBe(false);
      expect(load({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }).tracing.exporter).toBeNull();
      const on = load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" });
      expect(on.tracing).toMatchObject({ exporter: "otlp", otlpUrl: "http://127.0.0.1:4318/v1/traces" });
      expect(on.log.traceIds).toBe(true);
    }
  });

  it("post to the endpoint's /v1/traces, or to the traces endpoint as given", () => {
    expect(api({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example/otlp/" }).tracing.otlpUrl).toBe(
      "https://collector.example/otlp/v1/traces",
    );
    const both = api({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:9999/custom",
    });
    expect(both.tracing).toMatchObject({ exporter: "otlp", otlpUrl: "http://127.0.0.1:9999/custom" });
    expect(api({ OTEL_TRACES_EXPORTER: "otlp" }).tracing).toEqual({
      exporter: "otlp",
      serviceName: "payreq-api",
      exportDelayMs: 5_000,
      sampleRatio: 1,
    });
  });

  it("follow OTEL_TRACES_EXPORTER over an endpoint, and name each process's service", () => {
    expect(
      api({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }).tracing.exporter,
    ).toBeNull();
    expect(worker({ OTEL_TRACES_EXPORTER: "console" }).tracing).toMatchObject({
      exporter: "console",
      serviceName: "payreq-worker",
    });
    expect(api({ OTEL_TRACES_EXPORTER: "console", OTEL_SERVICE_NAME: "pay-eu" }).tracing.serviceName).toBe("pay-eu");
    expect(worker({ OTEL_TRACES_EXPORTER: "console", OTEL_BSP_SCHEDULE_DELAY: "250" }).tracing.exportDelayMs).toBe(250);
  });

  it("refuse what the built-in exporter cannot do, naming the variable", () => {
    const refused = {
      OTEL_TRACES_EXPORTER: ["jaeger", "zipkin", "OTLP", ""],
      OTEL_EXPORTER_OTLP_ENDPOINT: ["127.0.0.1:4318", "grpc://127.0.0.1:4317", "not a url"],
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ["ftp://127.0.0.1/v1/traces"],
      OTEL_EXPORTER_OTLP_PROTOCOL: ["grpc", "http/json"],
      OTEL_SERVICE_NAME: [""],
      OTEL_BSP_SCHEDULE_DELAY: ["0", "-5", "1.5", "soon"],
      OTEL_TRACES_SAMPLER: ["always_on", "traceidratio", "jaeger_remote"],
      OTEL_TRACES_SAMPLER_ARG: ["-0.1", "1.5", "half"],
    };
    for (const schema of [apiEnv, workerEnv])
      for (const [name, values] of Object.entries(refused))
        for (const value of values) {
          const parsed = schema.safeParse({ [name]: value });
          expect(parsed.success, `${name}=${value}`).toBe(false);
          expect(parsed.error!.issues.map((issue) => issue.path.join("."))).toEqual([name]);
        }
    expect(apiEnv.safeParse({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }).error!.issues[0]!.message).toMatch(/http\/protobuf/);
  });

  it("take a sampling ratio only with the ratio sampler", () => {
    expect(api({ OTEL_TRACES_EXPORTER: "console", OTEL_TRACES_SAMPLER_ARG: "0.25" }).tracing.sampleRatio).toBe(1);
    const ratio = { OTEL_TRACES_EXPORTER: "console", OTEL_TRACES_SAMPLER: "parentbased_traceidratio" };
    expect(worker({ ...ratio, OTEL_TRACES_SAMPLER_ARG: "0.25" }).tracing.sampleRatio).toBe(0.25);
    expect(worker(ratio).tracing.sampleRatio).toBe(1);
  });
});

describe("the sampler", () => {
  const traceIds = Array.from({ length: 2000 }, (_, i) =>
    (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(32, "0").slice(-32),
  );
  const decide = (ratio: number, kind: SpanKind, options: { links?: SpanContext[]; parent?: SpanContext } = {}) => {
    const parent = options.parent ? trace.setSpanContext(ROOT_CONTEXT, options.parent) : ROOT_CONTEXT;
    const links = (options.links ?? []).map((context) => ({ context }));
    return traceIds.map((traceId) => arrivalsSampler(ratio).shouldSample(parent, traceId, "x", kind, {}, links).decision);
  };
  const keptShare = (decisions: SamplingDecision[]) =>
    decisions.filter((d) => d === SamplingDecision.RECORD_AND_SAMPLED).length / decisions.length;
  const spanContext = (flags: TraceFlags): SpanContext => ({
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    traceFlags: flags,
  });

  it("starts a trace only at a call or a delivery, never at a process's own background work", () => {
    expect(keptShare(decide(1, SpanKind.SERVER))).toBe(1);
    expect(keptShare(decide(1, SpanKind.CONSUMER))).toBe(1);
    for (const kind of [SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.PRODUCER]) expect(keptShare(decide(1, kind))).toBe(0);
  });

  it("keeps the ratio's share of calls, and every span of a kept trace", () => {
    expect(keptShare(decide(0, SpanKind.SERVER))).toBe(0);
    expect(keptShare(decide(0.25, SpanKind.SERVER))).toBeGreaterThan(0.2);
    expect(keptShare(decide(0.25, SpanKind.SERVER))).toBeLessThan(0.3);
    expect(keptShare(decide(0, SpanKind.INTERNAL, { parent: spanContext(TraceFlags.SAMPLED) }))).toBe(1);
    expect(keptShare(decide(1, SpanKind.CLIENT, { parent: spanContext(TraceFlags.NONE) }))).toBe(0);
  });

  it("keeps a delivery when the call it links to was kept, whatever the ratio", () => {
    expect(keptShare(decide(0, SpanKind.CONSUMER, { links: [spanContext(TraceFlags.SAMPLED)] }))).toBe(1);
    expect(keptShare(decide(1, SpanKind.CONSUMER, { links: [spanContext(TraceFlags.NONE)] }))).toBe(0);
  });
});

describe("spans that cannot be exported", () => {
  it("are reported as a warning at most once a minute, counting the failures meanwhile", () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger(
      { level: "info" },
      "api",
      new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) }),
    );
    let now = 1_000_000;
    const report = exportFailureReporter(logger, () => now);
    report(new Error("connect ECONNREFUSED 127.0.0.1:4318"));
    report(new Error("connect ECONNREFUSED 127.0.0.1:4318"));
    now += EXPORT_FAILURE_REPORT_MS - 1;
    report(new Error("connect ECONNREFUSED 127.0.0.1:4318"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, failures: 1, err: { message: "connect ECONNREFUSED 127.0.0.1:4318" } });
    now += 1;
    report("Bad Request");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 40, failures: 3, err: { message: "Bad Request" } });
  });
});
