import { request, type IncomingHttpHeaders } from "node:http";
import { randomInt } from "node:crypto";
import { print } from "graphql";
import { RequestChanges } from "../../operations/dashboard.js";

export interface Change {
  id: string;
  status: string;
}

/**
 * A loopback address of its own for a test (127.x.y.z), so what the API counts per client address
 * is that test's alone, also across test runs sharing the Redis.
 */
export const ownLoopbackAddress = () => `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`;

/**
 * A `paymentRequestChanged` subscription over server-sent events, from `localAddress`, that
 * collects every change (and hands each to `onChange`). `opened` resolves with the answer's status and headers (a refused stream
 * has its body read into `refusal`); an error payload or an end of the stream before `close()` is
 * kept as `failure`, which the waits throw.
 */
export function openStream(
  base: string,
  apiKey: string,
  localAddress = "127.0.0.1",
  variables: object = {},
  onChange: (change: Change) => void = () => {},
) {
  const url = new URL("/graphql", base);
  const events: Change[] = [];
  const errors: { message: string; extensions?: { code?: string } }[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  let failure: Error | null = null;
  let closing = false;
  let ended = false;
  let completed = false;
  let refusal = "";

  const call = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: "POST",
    localAddress,
    agent: false,
    headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": apiKey },
  });
  const opened = new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    call.once("error", (error) => {
      if (!closing) failure ??= error;
      ended = true;
      notify();
      reject(error);
    });
    call.once("response", (response) => {
      const status = response.statusCode ?? 0;
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (status !== 200) return void (refusal += chunk);
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const lines = buffer.slice(0, end).split("\n");
          buffer = buffer.slice(end + 2);
          const event = lines
            .find((line) => line.startsWith("event:"))
            ?.slice(6)
            .trim();
          const data = lines
            .find((line) => line.startsWith("data:"))
            ?.slice(5)
            .trim();
          if (event === "complete") completed = true;
          if (!data) continue; // a keep-alive comment, or the completion
          const payload = JSON.parse(data) as { data?: { paymentRequestChanged: Change }; errors?: typeof errors };
          if (payload.errors) {
            errors.push(...payload.errors);
            failure ??= new Error(`the stream carried an error: ${data}`);
          }
          if (payload.data) {
            events.push(payload.data.paymentRequestChanged);
            onChange(payload.data.paymentRequestChanged);
          }
        }
        notify();
      });
      response.once("close", () => {
        if (status === 200 && !closing) failure ??= new Error(completed ? "the server completed the stream" : "the stream ended");
        ended = true;
        notify();
      });
      resolve({ status, headers: response.headers });
    });
  });
  opened.catch(() => {});
  call.end(JSON.stringify({ query: print(RequestChanges), variables }));

  /** Whether `predicate` holds within `timeoutMs`, waking on each event (not polling). */
  async function within(predicate: () => boolean, timeoutMs: number, allowFailure = false): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (failure && !allowFailure) throw failure;
      if (predicate()) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          listeners.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        listeners.add(wake);
      });
    }
  }

  return {
    events,
    /** The errors the stream carried (each is also its failure). */
    errors,
    opened,
    refusal: () => refusal,
    /** Whether the server ended the stream with a `complete` event. */
    completed: () => completed,
    heardWithin: (predicate: (events: Change[]) => boolean, timeoutMs: number) => within(() => predicate(events), timeoutMs),
    /** Waits until `predicate` holds of the events; past the deadline it fails, naming `what` and what was heard. */
    async heard(predicate: (events: Change[]) => boolean, what: string, timeoutMs = 10_000) {
      if (!(await within(() => predicate(events), timeoutMs)))
        throw new Error(`Waited ${timeoutMs} ms for ${what}; heard only ${JSON.stringify(events)}`);
    },
    /** Waits until the server has ended the stream (a failure here is what is awaited). */
    async ended(timeoutMs = 10_000) {
      if (!(await within(() => ended, timeoutMs, true))) throw new Error(`the stream did not end within ${timeoutMs} ms`);
    },
    /** Hangs up, as a client that goes away does. */
    close() {
      closing = true;
      call.destroy();
    },
  };
}

export type Stream = ReturnType<typeof openStream>;
