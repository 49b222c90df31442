import { Writable } from "node:stream";
import { print } from "graphql";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "../api-parts.js";
import { buildPayerKey, buildRequest, payer } from "../factories.js";
import { PayRequest as Pay } from "../operations/requests.js";
import { pool } from "../../src/db.js";
import { db } from "../prisma.js";
import { createApp } from "../../src/http/app.js";
import { createLogger } from "../../src/logger.js";
import { payRequest } from "../../src/domain/requests/pay.js";
import { openRedis } from "../../src/transport/redis.js";
import { startApiTracing } from "../../src/api/tracing.js";
import { eventOf, startReceiver, until, withWorker, workerConfig } from "./harness.js";

// This file's process traces as the API's and the worker's do with OTEL_EXPORTER_OTLP_ENDPOINT set
// (src/api/tracing.ts starts the same SDK the worker's root does), its spans kept in memory; the
// app and the worker run in it, as in their own processes.
const exporter = new InMemorySpanExporter();
const logLines: Record<string, unknown>[] = [];
const logger = createLogger(
  { level: "info", traceIds: true },
  "api",
  new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(JSON.parse(chunk.toString())), done()) }),
);
const tracing = startApiTracing(
  { exporter: "otlp", serviceName: "payreq-test", exportDelayMs: 5_000, sampleRatio: 1 },
  logger,
  exporter,
);
const redis = openRedis(config.redis, logger);
const app = createApp({ config, logger, redis, tracing: tracing.spans });
afterAll(async () => {
  await app.dispose();
  redis.disconnect();
  await tracing.sdk.shutdown();
});

const spans = () => exporter.getFinishedSpans();
const inTrace = (traceId: string) => spans().filter((s) => s.spanContext().traceId === traceId);
const childrenOf = (parent: ReadableSpan) => spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
/** The statement a pg span ran (its text only: the instrumentation records no parameter values). */
const statementOf = (span: ReadableSpan) => (span.attributes["db.query.text"] ?? span.attributes["db.statement"] ?? "") as string;
const isSql = (span: ReadableSpan) => statementOf(span) !== "";
/** A span's ancestors up to its trace's root, nearest first. */
function ancestorsOf(span: ReadableSpan): ReadableSpan[] {
  const parent = spans().find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
  return parent ? [parent, ...ancestorsOf(parent)] : [];
}
/** The delivery spans of one event, one per attempt, in attempt order. */
const deliveriesOf = (eventId: string) =>
  spans()
    .filter((s) => s.name === "webhook.deliver" && s.attributes["payreq.webhook.event_id"] === eventId)
    .sort((a, b) => Number(a.attributes["payreq.webhook.attempt"]) - Number(b.attributes["payreq.webhook.attempt"]));
const traceparentOf = (span: ReadableSpan) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

async function restPay(requestId: string, apiKey: string) {
  const response = await app.fetch(
    new Request("http://test/api/requests.pay", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ requestId, ledger: "test.uplink", paymentAuthorization: "tok" }),
    }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { paidBy: { transactionId: string } }).paidBy.transactionId;
}

describe("traces", () => {
  it("follow a REST pay through its SQL to the outbox, and each delivery attempt as a trace linked to it", async () => {
    // The first attempt fails (500), the retry is delivered: two delivery traces, one call trace.
    const receiver = await startReceiver((index) => (index === 0 ? { status: 500 } : {}));
    const { request } = await buildRequest({ amount: 700, notifyUrl: receiver.url });
    const purchaseId = await restPay(request.id, await buildPayerKey());

    const call = spans().find((s) => s.name === "requests.pay" && s.attributes["http.route"] && ancestorsOf(s).length === 0);
    expect(call, "a root span named after the dotted operation").toBeDefined();
    const callTrace = inTrace(call!.spanContext().traceId);
    expect(call!.kind).toBe(SpanKind.SERVER);
    expect(call!.attributes["http.response.status_code"]).toBe(200);
    // Its statements are in the call's trace, beneath the call: the pay wrote the outbox row.
    const statements = callTrace.filter(isSql);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(ancestorsOf(statement).at(-1)).toBe(call);
    expect(statements.some((s) => /insert into "?delivery"?/i.test(statementOf(s)))).toBe(true);
    expect(
      statements.every((s) => !statementOf(s).includes(request.id)),
      "no values in statements",
    ).toBe(true);
    // The row keeps the call's traceparent.
    expect((await eventOf(purchaseId)).traceparent).toBe(traceparentOf(call!));
    // The call's log line carries its ids.
    const logged = logLines.find((line) => line["msg"] === "http request" && line["trace_id"] === call!.spanContext().traceId);
    expect(logged).toMatchObject({ path: "/api/requests.pay", status: 200, span_id: call!.spanContext().spanId });

    await withWorker(workerConfig(), async () => {
      const event = await until(
        () => eventOf(purchaseId),
        (e) => e.state === "DELIVERED",
      );
      const [first, second] = await until(
        () => deliveriesOf(event.id),
        (found) => found.length === 2,
      );
      for (const [delivery, status] of [
        [first!, 500],
        [second!, 200],
      ] as const) {
        // A trace of its own, not part of the call's, linked to the call's span.
        expect(ancestorsOf(delivery)).toEqual([]);
        expect(delivery.spanContext().traceId).not.toBe(call!.spanContext().traceId);
        expect(delivery.links.map(({ context: { traceId, spanId } }) => ({ traceId, spanId }))).toEqual([
          { traceId: call!.spanContext().traceId, spanId: call!.spanContext().spanId },
        ]);
        expect(delivery.kind).toBe(SpanKind.CONSUMER);
        // Signed, then POSTed with the receiver's answer, then recorded.
        const steps = childrenOf(delivery).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
        const names = steps.map((s) => s.name);
        expect(names.indexOf("webhook.sign")).toBeGreaterThanOrEqual(0);
        expect(names.indexOf("POST")).toBeGreaterThan(names.indexOf("webhook.sign"));
        const post = steps.find((s) => s.name === "POST")!;
        expect(post.kind).toBe(SpanKind.CLIENT);
        expect(post.attributes).toMatchObject({
          "http.request.method": "POST",
          "http.response.status_code": status,
          "server.address": "127.0.0.1",
        });
        expect(post.status.code).toBe(status === 200 ? SpanStatusCode.UNSET : SpanStatusCode.ERROR);
        const recorded = steps.filter(isSql);
        // The attempt's record, however the builder spells it (`update "webhook_attempt"`).
        expect(recorded.some((s) => /update "?webhook_attempt"?/i.test(statementOf(s)))).toBe(true);
      }
      expect(first!.spanContext().traceId).not.toBe(second!.spanContext().traceId);
      expect(first!.attributes["payreq.webhook.state"]).toBe("PENDING");
      expect(second!.attributes["payreq.webhook.state"]).toBe("DELIVERED");
    });
    await receiver.close();
  });

  it("give a GraphQL pay a span named after its operation, which the outbox row names", async () => {
    const receiver = await startReceiver();
    const { request } = await buildRequest({ amount: 800, notifyUrl: receiver.url });
    const response = await app.fetch(
      new Request("http://test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": await buildPayerKey() },
        body: JSON.stringify({
          query: print(Pay),
          variables: { input: { requestId: request.id, ledger: "test.uplink", authorization: "tok" } },
        }),
      }),
    );
    const body = (await response.json()) as { data: { requestPay: { paidBy: { id: string } } } };
    expect(body, JSON.stringify(body)).toHaveProperty("data.requestPay.paidBy.id");
    const purchaseId = body.data.requestPay.paidBy.id;

    const operation = spans().find((s) => s.name === "mutation.PayRequest" && statementOf(childrenOf(s).find(isSql) ?? s) !== "");
    expect(operation, "a span named after the operation, its statements beneath it").toBeDefined();
    const [call] = ancestorsOf(operation!);
    expect(call).toMatchObject({ name: "POST /graphql", kind: SpanKind.SERVER });
    expect(ancestorsOf(call!)).toEqual([]);
    expect((await eventOf(purchaseId)).traceparent).toBe(traceparentOf(operation!));
    await receiver.close();
  });

  it("start no trace for a process's own work outside a call or a delivery", async () => {
    const before = spans().length;
    await db.merchant.count();
    await pool.query("SELECT 1");
    await tracing.sdk.flush();
    expect(
      spans()
        .slice(before)
        .map((s) => s.name),
    ).toEqual([]);
  });

  it("store no traceparent for a pay made outside any traced call", async () => {
    const { request } = await buildRequest({ amount: 900, notifyUrl: "http://127.0.0.1:9/hook" });
    const paid = await payRequest(payer, { requestId: request.id, authorization: "x", ledger: "test.uplink" });
    expect((await eventOf(paid.purchase!.id)).traceparent).toBeNull();
  });
});
