/**
 * Subscription fan-out: one key at its most open streams (SUBSCRIPTIONS_PER_KEY, 20 by default);
 * the milliseconds from a cancel's answer until every stream has heard the change.
 */
import { createBody, type Bench } from "./calls.js";
import { openChangeStream } from "./change-stream.js";
import { call, waitUntil } from "./load.js";
import type { BenchOptions } from "./options.js";
import { percentile } from "./report.js";

const STREAMS = 20;

export async function measureFanOut(bench: Bench, options: BenchOptions): Promise<{ streams: number; p50: number; p99: number }> {
  const { api, headers, merchantId } = bench;
  const streamsStop = new AbortController();
  const heardBy = new Map<string, number>();
  await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      const stream = await openChangeStream(
        api,
        headers["x-api-key"]!,
        (id) => heardBy.set(id, (heardBy.get(id) ?? 0) + 1),
        streamsStop.signal,
      );
      if (stream.status !== 200) throw new Error(`bench: a subscription was refused: HTTP ${stream.status}`);
      stream.ended.catch(() => {}); // ends when the bench aborts the streams
    }),
  );
  /** Creates and cancels a request; the milliseconds from the cancel's answer until every stream heard it. */
  async function fanOutLatency(timeoutMs = 30_000): Promise<number> {
    const { requestId } = await call<{ requestId: string }>(`${api}/api/requests.create`, {
      method: "POST",
      headers,
      body: createBody(merchantId),
    });
    await call(`${api}/api/requests.cancel`, { method: "POST", headers, body: JSON.stringify({ requestId }) });
    const cancelledAt = Date.now();
    await waitUntil(
      () => `all ${STREAMS} streams to hear ${requestId}`,
      () => heardBy.get(requestId) === STREAMS,
      timeoutMs,
      1,
    );
    return Date.now() - cancelledAt;
  }
  // The streams listen once the API has subscribed in Redis: unmeasured changes until one reaches them all.
  await waitUntil(
    () => "the subscription streams to hear a change",
    () =>
      fanOutLatency(500).then(
        () => true,
        () => false,
      ),
    20_000,
    0,
  );
  const fanOut: number[] = [];
  for (let i = 0; i < (options.quick ? 20 : 50); i++) fanOut.push(await fanOutLatency());
  fanOut.sort((a, b) => a - b);
  const figures = { streams: STREAMS, p50: percentile(fanOut, 50), p99: percentile(fanOut, 99) };
  console.log(`  cancel → heard by all ${STREAMS} streams of the key: p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
  streamsStop.abort();
  return figures;
}
