import { built } from "../built.js";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { testEnv } from "../../vitest.config.js";
import { buildMerchant, type TestMerchant } from "../factories.js";
import { startProxy } from "../proxy.js";
import { fileEnv, startApiProcess } from "../service-processes.js";
import { until } from "./harness.js";

const proxy = startProxy(5432);
const redisProxy = startProxy(6379);
let stopApi: () => void;
let base: string;
let merchant: TestMerchant;

beforeAll(async () => {
  merchant = await buildMerchant();
  const proxyPort = await proxy.listen();
  const redisUrl = new URL(testEnv.REDIS_URL);
  redisUrl.port = String(await redisProxy.listen());
  // The API process reaches this file's database through the proxy.
  const url = new URL(fileEnv.DATABASE_URL);
  url.port = String(proxyPort);
  const api = await startApiProcess({ DATABASE_URL: url.toString(), REDIS_URL: redisUrl.toString() });
  base = api.base;
  stopApi = api.kill;
});

afterAll(async () => {
  stopApi();
  await Promise.all([proxy.close(), redisProxy.close()]);
});

const create = (amount: number) =>
  fetch(`${base}/api/requests.create`, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ merchantId: merchant.merchantId, asset: "NZD", amount }),
  });

describe("database outage", () => {
  it("answers 503 EXTERNAL_SERVICE_ERROR quickly while the database is cut, writes nothing, and recovers", async () => {
    expect((await create(1)).status).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    const during = await create(2);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ statusCode: 503, message: "EXTERNAL_SERVICE_ERROR" });
    expect((await fetch(`${base}/ready`)).status).toBe(503);

    proxy.restore();
    const after = await until(
      () => create(3).then((r) => r.status),
      (status) => status === 200,
      20_000,
    );
    expect(after).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    const amounts = (
      await db.paymentRequest.findMany({ where: { merchantId: merchant.merchantId }, select: { amount: true } })
    ).map((r) => r.amount);
    expect(amounts.sort()).toEqual([1n, 3n]);
  });

  it("answers 503 while Redis (the rate limiter's store) is cut, and recovers", async () => {
    redisProxy.cut();
    const started = Date.now();
    const during = await create(4);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ message: "EXTERNAL_SERVICE_ERROR" });

    redisProxy.restore();
    expect(
      await until(
        () => create(5).then((r) => r.status),
        (status) => status === 200,
        20_000,
      ),
    ).toBe(200);
    const amounts = (
      await db.paymentRequest.findMany({ where: { merchantId: merchant.merchantId }, select: { amount: true } })
    ).map((r) => r.amount);
    expect(amounts.sort()).toEqual([1n, 3n, 5n]);
  });
});

/** Starts a process (`script`) whose Redis is behind a proxy that is cut from the start, collecting its log lines. */
async function spawnWithRedisCut(script: string, env: Record<string, string>) {
  const cutRedis = startProxy(6379);
  const redisUrl = new URL(testEnv.REDIS_URL);
  redisUrl.port = String(await cutRedis.listen());
  cutRedis.cut();
  const child = spawn(process.execPath, built(script), {
    env: { ...process.env, LOG_LEVEL: "info", REDIS_URL: redisUrl.toString(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: { level: number; msg: string }[] = [];
  let stderr = "";
  createInterface({ input: child.stdout }).on("line", (line) => lines.push(JSON.parse(line)));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { cutRedis, lines, stderr: () => stderr, exited, child };
}

describe("a worker started while Redis is down", () => {
  it("says once that Redis is unreachable, waits, and says when it is back and ready", async () => {
    const { cutRedis, lines, stderr, exited, child } = await spawnWithRedisCut("worker/index.ts", {
      QUEUE_PREFIX: `test-${randomUUID()}`,
    });
    try {
      await until(
        () => lines.map((l) => l.msg),
        (msgs) => msgs.includes("Redis is unreachable; retrying with backoff"),
        20_000,
      );
      // Its clients keep retrying for a while; the outage stays one line, with no stack traces.
      const before = Date.now();
      await until(
        () => Date.now() - before,
        (waited) => waited >= 2_000,
      );
      expect(lines.filter((l) => l.msg.includes("Redis"))).toHaveLength(1);
      expect(lines.some((l) => l.msg === "worker ready")).toBe(false);
      expect(stderr()).toBe("");

      cutRedis.restore();
      // The outage ends once Redis has answered with no error for a while (SETTLED_MS, worker/outage.ts).
      await until(
        () => lines.map((l) => l.msg),
        (all) => all.includes("worker ready") && all.includes("Redis is reachable again"),
        20_000,
      );
      expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
      await exited;
      await cutRedis.close();
    }
  });
});

describe("an API started while Redis is down", () => {
  it("says it waits for Redis and listens only once Redis answers", async () => {
    const { cutRedis, lines, exited, child } = await spawnWithRedisCut("src/api/server.ts", { PORT: "0" });
    try {
      await until(
        () => lines.map((l) => l.msg),
        (msgs) => msgs.includes("waiting for Redis before listening"),
        20_000,
      );
      expect(lines.some((l) => l.msg.startsWith("API listening"))).toBe(false);
      cutRedis.restore();
      await until(
        () => lines.map((l) => l.msg),
        (msgs) => msgs.some((m) => m.startsWith("API listening")),
        20_000,
      );
      expect(lines.filter((l) => l.msg === "waiting for Redis before listening")).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
      await exited;
      await cutRedis.close();
    }
  });
});
