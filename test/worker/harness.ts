/**
 * What the tests of webhook delivery share: a receiver that answers as told, a worker's settings and
 * a worker running in the test's process, and notifications verified as a merchant would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { db } from "../prisma.js";
import { createLogger } from "../../src/logger.js";
import { startWorker } from "../../worker/app.js";
import type { WorkerConfig } from "../../worker/config.js";
import { testEnv } from "../../vitest.config.js";
import { fileEnv } from "../service-processes.js";
import { until } from "../until.js";

export { until };

export interface Received {
  at: number;
  token: string;
  headers: IncomingMessage["headers"];
}

/**
 * A webhook receiver on 127.0.0.1. `answer` decides each call's fate by its index:
 * a status, or a delay before answering 200 (slower than the timeout means a failure).
 * With `holdUntilOpen`, no call is answered (its delay not even begun) until that many are open at
 * once, or `holdUntilOpen.deadlineMs` after the first call: the most calls open at once then shows
 * how many the sender keeps in flight, however slowly it starts them beside answers coming back.
 */
export async function startReceiver(
  answer: (index: number) => { status?: number; delayMs?: number } = () => ({}),
  { holdUntilOpen }: { holdUntilOpen?: { calls: number; deadlineMs: number } } = {},
) {
  const received: Received[] = [];
  const open = { now: 0, most: 0 };
  let release: () => void = () => {};
  const released = holdUntilOpen ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  let deadline: NodeJS.Timeout | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk));
    req.on("end", () => {
      const index = received.length;
      received.push({ at: Date.now(), token: (JSON.parse(body) as { token: string }).token, headers: req.headers });
      open.most = Math.max(open.most, ++open.now);
      res.on("close", () => open.now--);
      if (holdUntilOpen) {
        deadline ??= setTimeout(release, holdUntilOpen.deadlineMs);
        if (open.now >= holdUntilOpen.calls) release();
      }
      const { status = 200, delayMs = 0 } = answer(index);
      void released.then(() =>
        setTimeout(() => res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "nope"), delayMs),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/${randomUUID()}`,
    received,
    /** The calls that carried event `eventId` (its jti), in order. */
    of: (eventId: string) => received.filter((r) => decodeJwt(r.token).jti === eventId),
    /** The most calls it was answering at once. */
    mostAtOnce: () => open.most,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(deadline);
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver on 127.0.0.1 that takes every call and answers none (a server that hangs), until told
 * to answer: then it answers 200 at once, and it answers the calls it holds. It counts the calls it
 * holds at once for each path, and the most it held.
 */
export async function startHangingReceiver() {
  const received: (Received & { path: string })[] = [];
  // Per path, and in all ("").
  const holding = new Map<string, number>();
  const most = new Map<string, number>();
  const held = new Set<ServerResponse>();
  let answering = false;
  const hold = (path: string, by: number) => {
    for (const key of [path, ""]) {
      const now = (holding.get(key) ?? 0) + by;
      holding.set(key, now);
      most.set(key, Math.max(most.get(key) ?? 0, now));
    }
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ at: Date.now(), token: (JSON.parse(body) as { token: string }).token, headers: req.headers, path });
      if (answering) return void res.end("ok");
      hold(path, 1);
      held.add(res);
      res.on("close", () => {
        held.delete(res);
        hold(path, -1);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** A URL of its, at `path`. */
    url: (path: string) => `${origin}${path}`,
    received,
    /** Calls held open now at `path` (all paths: ""), and the most held at once since `resetMost`. */
    holding: (path = "") => holding.get(path) ?? 0,
    most: (path = "") => most.get(path) ?? 0,
    resetMost: () => most.clear(),
    /** From now on it answers 200 at once, the calls it holds too. */
    answer() {
      answering = true;
      for (const res of held) res.end("ok");
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function workerConfig(webhooks: Partial<WorkerConfig["webhooks"]> = {}, parts: Partial<WorkerConfig> = {}): WorkerConfig {
  return {
    db: {
      url: fileEnv.DATABASE_URL,
      poolSize: Number(testEnv.DATABASE_POOL_SIZE),
      applicationName: "payreq-worker",
      preparedStatements: true,
      directUrl: fileEnv.DATABASE_URL,
    },
    log: { level: "silent", pretty: false, traceIds: false },
    tracing: { exporter: null, serviceName: "payreq-worker", exportDelayMs: 5_000, sampleRatio: 1 },
    redis: { kind: "single", url: testEnv.REDIS_URL },
    // In braces, as on a Redis Cluster (docs/scaling.md): BullMQ then keeps a queue's keys in one slot.
    queues: { prefix: `{test-${randomUUID()}}` },
    expiry: { sweepIntervalMs: 60_000 },
    retention: { sweepIntervalMs: 3_600_000, webhookRetentionMs: 90 * 86_400_000, activityRetentionMs: null, batchSize: 1000 },
    metrics: { port: null, host: "127.0.0.1" },
    shutdownTimeoutMs: 5_000,
    health: { file: undefined, everyMs: 10_000 },
    webhooks: {
      retryDelaysMs: [50, 50, 50, 50, 50, 50, 50],
      // The service's own: an attempt holds its delivery for this and 5 s more (deliveryLeaseMs), and
      // on a machine whose cores other work keeps busy, an attempt of this process (which answers as
      // the receiver too) has outlived a lease of 6 s; the delivery was then attempted again, and the
      // receiver got it twice. A test of a receiver too slow to answer gives a timeout of its own.
      timeoutMs: 10_000,
      issuer: "payreq-test",
      allowPrivateNetworks: true,
      signingKey: undefined,
      signingKeyDir: fileEnv.WEBHOOK_SIGNING_KEY_DIR,
      keyOverlapMs: 3_600_000,
      generateMissingKey: true,
      // Every signature reads the current key, so a rotation shows at once, not after a cache lifetime.
      keyCacheMs: 0,
      reconcileIntervalMs: 300,
      endpointDisableAfterMs: 3 * 86_400_000,
      concurrency: 100,
      ...webhooks,
    },
    ...parts,
  };
}

export const silentLogger = createLogger({ level: "silent" });

/** A logger whose lines are kept, for a test to show what its worker said when it fails. */
export function keptLog() {
  const lines: string[] = [];
  return { logger: createLogger({ level: "info" }, "worker", { write: (line: string) => void lines.push(line) }), lines };
}

export async function withWorker<T>(
  config: WorkerConfig,
  run: (worker: Awaited<ReturnType<typeof startWorker>>) => Promise<T>,
  logger = silentLogger,
): Promise<T> {
  const worker = await startWorker(config, logger);
  try {
    return await run(worker);
  } finally {
    await worker.close();
  }
}

type Notification = JWTPayload & { transaction: Record<string, unknown> };

/**
 * Verifies notifications as a merchant would: with the JWKS the API publishes, read once for all of
 * them (a receiver caches it; hundreds of reads at once would only queue for the database).
 */
export async function verifyNotifications(tokens: string[]): Promise<Notification[]> {
  // The app is loaded by the first file that verifies one: the others need no HTTP or GraphQL stack.
  const { app } = await import("../fixtures.js");
  const response = await app.fetch(new Request("http://test/.well-known/jwks.json"));
  if (!response.ok) throw new Error(`the JWKS answered ${response.status}: ${await response.text()}`);
  const jwks = createLocalJWKSet((await response.json()) as { keys: [] });
  return Promise.all(
    tokens.map(async (token) => {
      const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: "payreq-test", algorithms: ["ES256"] });
      if (protectedHeader.typ !== "JWT" || !protectedHeader.kid) throw new Error("header lacks typ or kid");
      return payload as Notification;
    }),
  );
}

export const verifyNotification = async (token: string): Promise<Notification> => (await verifyNotifications([token]))[0]!;

export function eventOf(transactionId: string) {
  return db.delivery.findUniqueOrThrow({
    where: { transactionId },
    include: { deliveryAttempts: { orderBy: { number: "asc" } } },
  });
}

/**
 * Creates and pays a request over a running service's REST API (form parameters, as a legacy
 * integrator sends them), naming `receiver` as its notifyUrl, and resolves with the notification's
 * verified transaction once the receiver has it.
 */
export async function payAndAwaitNotification(
  base: string,
  merchant: { merchantId: string; apiKey: string },
  receiver: Awaited<ReturnType<typeof startReceiver>>,
): Promise<{ requestId: string; transaction: Record<string, unknown> }> {
  const call = async (operation: string, params: Record<string, string>) => {
    const answer = await fetch(`${base}/api/${operation}`, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: new URLSearchParams(params),
    });
    const body = (await answer.json()) as Record<string, string>;
    if (answer.status !== 200) throw new Error(`${operation} answered ${answer.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const { requestId } = await call("requests.create", {
    merchantId: merchant.merchantId,
    asset: "NZD",
    amount: "300",
    notifyUrl: receiver.url,
  });
  await call("requests.pay", { requestId: requestId!, ledger: "test.uplink", authorization: "ok" });
  const [notification] = await until(
    () => receiver.received,
    (received) => received.length === 1,
    20_000,
    "the notification",
  );
  return { requestId: requestId!, transaction: (await verifyNotification(notification!.token)).transaction };
}
