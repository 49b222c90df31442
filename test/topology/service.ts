import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { decodeJwt } from "jose";
import { db } from "../prisma.js";
import { built } from "../built.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";
import { verifyNotifications } from "../worker/harness.js";

/**
 * The service as an operator runs it, on the engines a topology test gives it: an API process and a
 * worker process on this file's database, given the settings `env` (where Redis or PostgreSQL are),
 * and a merchant whose requests the test pays through the API.
 */
export async function startService(env: Record<string, string>, workerEnv: Record<string, string> = {}) {
  const worker = await startWorkerProcess({ ...env, ...workerEnv });
  const api = await startApiProcess(env).catch(async (err: unknown) => {
    await worker.stop();
    throw err;
  });
  return {
    api,
    worker,
    stop: async () => {
      api.kill();
      await worker.stop();
    },
  };
}

/** A worker process on this file's database, short retries and a 1 s reconcile, keeping its log lines. */
async function startWorkerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, built("worker/index.ts"), {
    env: {
      ...process.env,
      QUEUE_PREFIX: `{test-${randomUUID()}}`,
      LOG_LEVEL: "info",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_ISSUER: "payreq-test",
      WEBHOOK_RECONCILE_INTERVAL: "1s",
      WEBHOOK_RETRY_DELAYS: "200ms,200ms,200ms,200ms,200ms,200ms,200ms",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: { level: number; msg: string; dependency?: string }[] = [];
  let stderr = "";
  createInterface({ input: child.stdout }).on("line", (line) => lines.push(JSON.parse(line)));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.once("exit", (code) => ((exitCode = code), resolve())));
  const log = () => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n${stderr}`.slice(-5_000);
  await until(
    () => exitCode !== undefined || lines.some((l) => l.msg === "worker ready"),
    Boolean,
    30_000,
    () => `the worker to be ready:\n${log()}`,
  );
  if (exitCode !== undefined) throw new Error(`the worker exited (${exitCode}):\n${log()}`);
  return {
    lines,
    log,
    /** Whether it is still running (a process that must survive the outage has not been restarted). */
    running: () => exitCode === undefined,
    stop: async () => {
      if (exitCode === undefined) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** One REST call's outcome, with when it was sent and answered. */
export interface Answer {
  sentAt: number;
  answeredAt: number;
  status: number;
  message?: string;
}

/** Pays a request over REST with the merchant's key at the test ledger. */
export async function pay(base: string, merchant: TestMerchant, requestId: string): Promise<Answer> {
  const sentAt = Date.now();
  const response = await fetch(`${base}/api/requests.pay`, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ requestId, ledger: "test.uplink", paymentAuthorization: "tok" }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return { sentAt, answeredAt: Date.now(), status: response.status, ...(body.message && { message: body.message }) };
}

/** `count` open requests of a fresh merchant, each notifying `notifyUrl`. */
export async function openRequests(count: number, notifyUrl: string) {
  const merchant = await buildMerchant();
  const ids: string[] = [];
  for (let at = 0; at < count; at += 50)
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, count - at) }, async () => (await buildRequest({ merchant, notifyUrl })).request.id),
      )),
    );
  return { merchant, ids };
}

/**
 * Pays every request, `concurrency` at a time (each caller pausing `pauseMs` between requests); a call answered 503 is made again (after a short
 * pause), as a client would. Every answer is kept. Resolves when all are paid, or throws on any
 * answer that is neither 200 nor 503 EXTERNAL_SERVICE_ERROR.
 */
export async function payAll(
  base: string,
  merchant: TestMerchant,
  requestIds: string[],
  { concurrency = 8, onPaid = (_paid: number) => {}, deadlineMs = 60_000, pauseMs = 0 } = {},
) {
  const answers: Answer[] = [];
  const left = [...requestIds];
  let paid = 0;
  const deadline = Date.now() + deadlineMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let id = left.shift(); id !== undefined; id = left.shift()) {
        for (;;) {
          if (Date.now() > deadline) throw new Error(`not all paid within ${deadlineMs} ms: ${paid} of ${requestIds.length}`);
          const answer = await pay(base, merchant, id).catch((err: Error) => ({
            sentAt: Date.now(),
            answeredAt: Date.now(),
            status: 0,
            message: err.message,
          }));
          answers.push(answer);
          if (answer.status === 200) break;
          if (answer.status !== 503 || answer.message !== "EXTERNAL_SERVICE_ERROR")
            throw new Error(`requests.pay answered ${answer.status} ${answer.message ?? ""}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        onPaid(++paid);
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }),
  );
  return answers;
}

/** The answers refused with 503 and the span from the first sent to the last answered (0 if none). */
export function refusals(answers: Answer[]) {
  const refused = answers.filter((a) => a.status === 503);
  if (refused.length === 0) return { refused, from: 0, to: 0, spanMs: 0 };
  const from = Math.min(...refused.map((a) => a.sentAt));
  const to = Math.max(...refused.map((a) => a.answeredAt));
  return { refused, from, to, spanMs: to - from };
}

/**
 * Waits until every notification event of the requests is delivered and the receiver accepted one
 * for each (`accepted`: the calls it answered 200), then tells how the deliveries went: each
 * notification verified with the service's JWKS, grouped by its transaction. `duplicates` counts
 * accepted calls beyond the first of an event.
 */
export async function deliveredNotifications(
  requestIds: string[],
  accepted: () => { token: string }[],
  timeoutMs: number,
  workerLog: () => string = () => "",
) {
  const where = { requestId: { in: requestIds } };
  const events = await until(
    () => db.delivery.findMany({ where, select: { id: true, transactionId: true, state: true } }),
    (all) => {
      const got = new Set(accepted().map((r) => decodeJwt(r.token).jti));
      return all.length > 0 && all.every((e) => e.state === "DELIVERED" && got.has(e.id));
    },
    timeoutMs,
    "every notification to be delivered",
    200,
  ).catch(async () => {
    // What an excerpt of the run shows is the message's first line: it says which are missing and where they stand.
    const got = new Set(accepted().map((r) => decodeJwt(r.token).jti));
    const all = await db.delivery.findMany({
      where,
      select: { id: true, state: true, attempts: true, enqueuedAt: true, leaseUntil: true, nextAttemptAt: true, lastError: true },
    });
    const missing = all.filter((e) => e.state !== "DELIVERED" || !got.has(e.id));
    const at = (date: Date | null) => (date ? `${date.getTime() - Date.now()} ms` : "-");
    const rows = missing
      .slice(0, 5)
      .map(
        (e) =>
          `${e.id.slice(0, 8)} ${e.state} attempts ${e.attempts} enqueued ${at(e.enqueuedAt)} lease ${at(e.leaseUntil)} ` +
          `next ${at(e.nextAttemptAt)}${e.lastError ? ` (${e.lastError})` : ""}${got.has(e.id) ? " accepted" : ""}`,
      );
    const claimed = missing.filter((e) => e.enqueuedAt).length;
    const leased = missing.filter((e) => e.leaseUntil && e.leaseUntil.getTime() > Date.now()).length;
    throw new Error(
      `${missing.length} of ${all.length} notifications not delivered within ${timeoutMs} ms (${accepted().length} accepted; ` +
        `of those missing, ${claimed} given a job, ${leased} under an attempt's lease): ` +
        `${rows.join("; ")}\nthe worker's log:\n${workerLog()}`,
    );
  });
  const deliveredAt = Date.now();
  // The notifications of these requests' transactions (the receiver may hold others' too).
  const transactions = new Set(events.map((e) => e.transactionId));
  const claims = (await verifyNotifications(accepted().map((r) => r.token))).filter((claim) =>
    transactions.has(String(claim.transaction["transactionId"])),
  );
  const jtisByTransaction = new Map<string, Set<string>>();
  for (const claim of claims) {
    const transactionId = String(claim.transaction["transactionId"]);
    jtisByTransaction.set(transactionId, (jtisByTransaction.get(transactionId) ?? new Set()).add(claim.jti!));
  }
  const eventIds = new Set(events.map((e) => e.id));
  return {
    /** When the last of them was seen delivered (to within the 200 ms of the polling). */
    deliveredAt,
    events,
    jtisByTransaction,
    delivered: new Set(claims.map((c) => c.jti)).size,
    lost: [...eventIds].filter((id) => !claims.some((c) => c.jti === id)).length,
    duplicates: claims.length - new Set(claims.map((c) => c.jti)).size,
  };
}
