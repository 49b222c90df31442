/**
 * An API whose DATABASE_URL names a database that does not exist is a dependency failure, not a
 * bug: both transports answer EXTERNAL_SERVICE_ERROR (503 on REST), as for a database that is down.
 */
import { built } from "../built.js";
import type { ChildProcess } from "node:child_process";
import { reportedPort, spawnNode } from "../../scripts/node-process.js";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let api: ChildProcess;
let base: string;
const key = { "x-api-key": `mk_${randomBytes(6).toString("hex")}_${randomBytes(32).toString("hex")}` };

beforeAll(async () => {
  const url = new URL(process.env["DATABASE_URL"]!);
  url.pathname = `/payreq_missing_${randomBytes(6).toString("hex")}`;
  api = spawnNode([...built("src/api/server.ts")], {
    env: { ...process.env, DATABASE_URL: url.toString(), PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info" },
    stdout: "ignore",
  });
  const port = await reportedPort(api, "the API");
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => void api.kill("SIGKILL"));

describe("a database that does not exist", () => {
  it("is 503 EXTERNAL_SERVICE_ERROR on REST", async () => {
    for (const [operation, body] of [
      ["requests.create", { merchantId: "m", asset: "NZD", amount: 300 }],
      ["requests.info", { requestId: "r" }],
    ] as const) {
      const response = await fetch(`${base}/api/${operation}`, {
        method: "POST",
        headers: { ...key, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect([operation, response.status, ((await response.json()) as { message: string }).message]).toEqual([
        operation,
        503,
        "EXTERNAL_SERVICE_ERROR",
      ]);
    }
  });

  it("is EXTERNAL_SERVICE_ERROR in GraphQL, for queries and mutations", async () => {
    for (const query of [
      "{ paymentRequests(first: 1) { edges { node { id } } } }",
      'mutation { requestCancel(input: { requestId: "r" }) { __typename } }',
    ]) {
      const response = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { ...key, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      const { errors } = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect([query, errors?.map((e) => e.extensions?.code)]).toEqual([query, ["EXTERNAL_SERVICE_ERROR"]]);
    }
  });

  it("makes the API not ready", async () => {
    expect((await fetch(`${base}/ready`)).status).toBe(503);
  });
});
