import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_SCHEME,
} from "@opentelemetry/semantic-conventions";
import { inSpan } from "../src/tracing.js";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { assertPublicLiteral, guardedLookup, RefusedDestinationError } from "./ssrf.js";

export interface PostResult {
  outcome: "DELIVERED" | "FAILED" | "REFUSED";
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
  durationMs: number;
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

const EXCERPT_BYTES = 512;

/**
 * Connections to receivers are kept open between deliveries. The SSRF check runs on the address a
 * new connection dials (the request's `lookup`), so a kept connection was checked when it opened.
 * Idle ones close before the 5 s that servers commonly keep them.
 */
const agents = {
  "http:": new HttpAgent({ keepAlive: true, timeout: 4_000 }),
  "https:": new HttpsAgent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * POSTs a JSON body once. 2xx within the timeout is DELIVERED; any other answer, a timeout or a
 * network error is FAILED; a destination on a non-public address is REFUSED (unless allowed).
 * Redirects are not followed: a 3xx is a failure like any other non-2xx.
 */
export function postJson(url: string, body: string, options: PostOptions): Promise<PostResult> {
  return inSpan("POST", { kind: SpanKind.CLIENT }, async (span) => {
    if (span.isRecording()) span.setAttributes(destinationAttributes(url));
    const result = await post(url, body, options);
    if (result.statusCode !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, result.statusCode);
    if (result.outcome !== "DELIVERED") {
      span.setAttribute(ATTR_ERROR_TYPE, result.statusCode === undefined ? result.outcome : String(result.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR, ...(result.error && { message: result.error }) });
    }
    return result;
  });
}

/** The client span's view of the destination: no path or query, which may carry a receiver's secret. */
function destinationAttributes(url: string) {
  if (!URL.canParse(url)) return { [ATTR_HTTP_REQUEST_METHOD]: "POST" };
  const { protocol, hostname, port } = new URL(url);
  return {
    [ATTR_HTTP_REQUEST_METHOD]: "POST",
    [ATTR_URL_SCHEME]: protocol.slice(0, -1),
    [ATTR_SERVER_ADDRESS]: hostname,
    [ATTR_SERVER_PORT]: Number(port) || (protocol === "https:" ? 443 : 80),
  };
}

async function post(url: string, body: string, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
    if (!options.allowPrivateNetworks) assertPublicLiteral(target);
  } catch (error) {
    return { outcome: "REFUSED", error: (error as Error).message, durationMs: elapsed() };
  }

  return new Promise<PostResult>((settle) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const resolve = (result: PostResult) => {
      clearTimeout(timer);
      if (!settled) settle(result);
      settled = true;
    };
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: "POST",
        agent: agents[target.protocol as keyof typeof agents],
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "payreq-webhooks/1",
        },
        ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", () => {
          const statusCode = res.statusCode ?? 0;
          const responseExcerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
          const delivered = statusCode >= 200 && statusCode < 300;
          resolve({
            outcome: delivered ? "DELIVERED" : "FAILED",
            statusCode,
            responseExcerpt,
            ...(delivered ? {} : { error: `HTTP ${statusCode}` }),
            durationMs: elapsed(),
          });
        });
        res.on("error", (error) => resolve(failure(error)));
        res.on("close", () => {
          if (!res.complete) resolve(failure(Object.assign(new Error("the answer was cut off"), { name: "AbortError" })));
        });
      },
    );
    const failure = (error: Error): PostResult => {
      if (error instanceof RefusedDestinationError || error.cause instanceof RefusedDestinationError) {
        return { outcome: "REFUSED", error: error.message, durationMs: elapsed() };
      }
      const timedOut = error.name === "AbortError" || error.name === "TimeoutError";
      return {
        outcome: "FAILED",
        error: timedOut ? `no answer within ${options.timeoutMs} ms` : error.message,
        durationMs: elapsed(),
      };
    };
    req.on("error", (error) => resolve(failure(error)));
    // The whole exchange, answer included, within the timeout (a plain timer costs less than an AbortSignal).
    timer = setTimeout(() => req.destroy(Object.assign(new Error("timed out"), { name: "TimeoutError" })), options.timeoutMs);
    req.end(body);
  });
}
