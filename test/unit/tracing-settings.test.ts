import { describe, expect, it } from "vitest";
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
});
