import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, jwtVerify, type JWTPayload } from "jose";
import { db } from "../../src/db.js";
import { startWorker } from "../../worker/app.js";
import type { WorkerConfig } from "../../worker/config.js";
import { app } from "../fixtures.js";
import { testEnv } from "../../vitest.config.js";

export interface Received {
  at: number;
  token: string;
  headers: IncomingMessage["headers"];
}

/**
 * A webhook receiver on 127.0.0.1. `answer` decides each call's fate by its index:
 * a status, or a delay before answering 200 (slower than the timeout means a failure).
 */
export async function startReceiver(answer: (index: number) => { status?: number; delayMs?: number } = () => ({})) {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk));
    req.on("end", () => {
      const index = received.length;
      received.push({ at: Date.now(), token: (JSON.parse(body) as { token: string }).token, headers: req.headers });
      const { status = 200, delayMs = 0 } = answer(index);
      setTimeout(() => res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "nope"), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/${randomUUID()}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function workerConfig(webhooks: Partial<WorkerConfig["webhooks"]> = {}): WorkerConfig {
  return {
    db: { url: testEnv.DATABASE_URL },
    redis: { url: testEnv.REDIS_URL },
    queues: { prefix: `test-${randomUUID()}` },
    expiry: { sweepIntervalMs: 60_000 },
    shutdownTimeoutMs: 5_000,
    webhooks: {
      retryDelaysMs: [50, 50, 50, 50, 50, 50, 50],
      timeoutMs: 1_000,
      issuer: "payreq-test",
      allowPrivateNetworks: true,
      signingKey: undefined,
      signingKeyDir: testEnv.WEBHOOK_SIGNING_KEY_DIR,
      keyOverlapMs: 3_600_000,
      reconcileIntervalMs: 300,
      concurrency: 10,
      ...webhooks,
    },
  };
}

export async function withWorker<T>(config: WorkerConfig, run: () => Promise<T>): Promise<T> {
  const worker = await startWorker(config);
  try {
    return await run();
  } finally {
    await worker.close();
  }
}

/** Polls until `done` holds or the deadline passes, then returns the last value read. */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Verifies a notification as a merchant would: with the JWKS the API publishes. */
export async function verifyNotification(token: string): Promise<JWTPayload & { transaction: Record<string, unknown> }> {
  const response = await app.fetch(new Request("http://test/.well-known/jwks.json"));
  const jwks = createLocalJWKSet((await response.json()) as { keys: [] });
  const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: "payreq-test", algorithms: ["ES256"] });
  if (protectedHeader.typ !== "JWT" || !protectedHeader.kid) throw new Error("header lacks typ or kid");
  return payload as JWTPayload & { transaction: Record<string, unknown> };
}

export function eventOf(transactionId: string) {
  return db.webhookEvent.findUniqueOrThrow({
    where: { transactionId },
    include: { deliveryAttempts: { orderBy: { number: "asc" } } },
  });
}

/** Events other suites left behind point at hosts that do not exist; keep the worker off them. */
export async function retireForeignEvents() {
  await db.webhookEvent.updateMany({
    where: { state: "PENDING", NOT: { url: { startsWith: "http://127.0.0.1:" } } },
    data: { state: "REFUSED" },
  });
}

/** Starts the API as its own process on a free-ish loopback port and waits until it answers. */
export async function startApiProcess(env: Record<string, string> = {}) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  const up = () =>
    fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    );
  await until(up, (status) => status === 200, 20_000);
  return { base, kill: () => child.kill("SIGKILL") };
}
