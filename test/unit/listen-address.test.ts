import { describe, expect, it } from "vitest";
import { loadApiConfig } from "../../src/api/config.js";
import { apiEnv, workerEnv } from "../../src/env.js";
import { localBaseUrl, reachableHost } from "../../src/listen-address.js";
import { loadWorkerConfig } from "../../worker/config.js";

describe("HOST and METRICS_PORT", () => {
  it("listen on 127.0.0.1 unless HOST is set, and on every interface by default in production", () => {
    for (const NODE_ENV of ["development", "test"]) {
      expect(loadApiConfig(apiEnv.parse({ NODE_ENV })).server.host).toBe("127.0.0.1");
      expect(loadWorkerConfig(workerEnv.parse({ NODE_ENV })).metrics.host).toBe("127.0.0.1");
    }
    expect(loadApiConfig(apiEnv.parse({ NODE_ENV: "production" })).server.host).toBeUndefined();
    expect(loadWorkerConfig(workerEnv.parse({ NODE_ENV: "production" })).metrics.host).toBeUndefined();
    for (const HOST of ["0.0.0.0", "::", "127.0.0.2", "::1", "10.1.2.3", "fd00::7"]) {
      expect(loadApiConfig(apiEnv.parse({ HOST })).server.host).toBe(HOST);
      expect(loadApiConfig(apiEnv.parse({ HOST, NODE_ENV: "production" })).server.host).toBe(HOST);
    }
  });

  it("refuses a HOST that is not an IP address, naming it", () => {
    for (const HOST of ["", "localhost", "example.com", "127.0.0.1:4000", "256.1.1.1", "10.1", "http://127.0.0.1", "::1/128"]) {
      for (const schema of [apiEnv, workerEnv]) {
        const parsed = schema.safeParse({ HOST });
        expect(parsed.success, HOST).toBe(false);
        expect(parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
          ["HOST", expect.stringMatching(/^an IP address of this machine, such as 127\.0\.0\.1/)],
        ]);
      }
    }
  });

  it("METRICS_PORT=0 serves no metrics port; any other port is served", () => {
    expect(loadApiConfig(apiEnv.parse({ METRICS_PORT: "0" })).metrics.port).toBeNull();
    expect(loadApiConfig(apiEnv.parse({})).metrics.port).toBe(9464);
    expect(loadApiConfig(apiEnv.parse({ METRICS_PORT: "9999" })).metrics.port).toBe(9999);
  });

  it("is reached from this machine at its loopback when it listens on every interface", () => {
    expect([undefined, "0.0.0.0", "::", "0:0:0:0:0:0:0:0", "127.0.0.2", "::1"].map(reachableHost)).toEqual([
      "127.0.0.1",
      "127.0.0.1",
      "::1",
      "::1",
      "127.0.0.2",
      "::1",
    ]);
    expect([undefined, "0.0.0.0", "127.0.0.1", "127.0.0.2", "::1"].map((host) => localBaseUrl(host, 4000))).toEqual([
      "http://localhost:4000",
      "http://localhost:4000",
      "http://localhost:4000",
      "http://127.0.0.2:4000",
      "http://[::1]:4000",
    ]);
  });
});
