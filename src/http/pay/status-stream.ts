import type { Hono } from "hono";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import type { RequestDetails } from "../../domain/requests/aggregate.js";
import { findRequestByPageCode } from "../../domain/requests/pay-page.js";
import type { RequestChangeFeed } from "../../pubsub/request-changes.js";
import type { Links } from "../../transport/links.js";
import { payerView, UNKNOWN_REQUEST } from "./payer.js";

/** A stream ends after this long; the page's EventSource opens another (and polls meanwhile). */
const STREAM_LIFETIME_MS = 10 * 60_000;
const HEARTBEAT_MS = 15_000;

export interface StatusStreamParts {
  changes: RequestChangeFeed;
  links: Links;
}

/**
 * GET /pay/:code/events: the payer's view as server-sent events, now and at every change, until
 * the request is no longer open. Returns what ends the open streams (the API is stopping; their
 * pages poll meanwhile).
 */
export function mountStatusStream(app: Hono, { changes, links }: StatusStreamParts): () => Promise<void> {
  /** The open streams, each with what ends it. */
  const streams = new Map<SSEStreamingApi, () => void>();

  app.get("/pay/:code/events", async (c) => {
    const found = await findRequestByPageCode(c.req.param("code"));
    if (!found) return c.json(UNKNOWN_REQUEST, 404);
    const { id: requestId, merchantId, requestCode } = found;
    return streamSSE(c, async (stream) => {
      // Listening before the first read: a change between the two is not lost.
      const changesOfMerchant = changes.changes(merchantId)[Symbol.asyncIterator]();
      let next = changesOfMerchant.next();
      const end = () => void changesOfMerchant.return?.();
      streams.set(stream, end);
      stream.onAbort(end);
      const lifetime = setTimeout(end, STREAM_LIFETIME_MS);
      const heartbeat = setInterval(() => void stream.write(": still here\n\n").catch(end), HEARTBEAT_MS);
      const send = (request: RequestDetails) =>
        stream.writeSSE({ event: "status", data: JSON.stringify(payerView(request, links)) });
      try {
        for (
          let request = await findRequestByPageCode(requestCode);
          request;
          request = await findRequestByPageCode(requestCode)
        ) {
          await send(request);
          if (request.status !== "NEW") return;
          // Until the next change of this request (or the stream's end).
          let change = await next;
          while (!change.done && change.value.requestId !== requestId) change = await (next = changesOfMerchant.next());
          if (change.done || stream.aborted) return;
          next = changesOfMerchant.next();
        }
      } finally {
        clearTimeout(lifetime);
        clearInterval(heartbeat);
        end();
        streams.delete(stream);
        await stream.close().catch(() => {});
      }
    });
  });

  return async () => {
    for (const end of streams.values()) end();
    await Promise.all([...streams.keys()].map((stream) => stream.close().catch(() => {})));
  };
}
