import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { ExternalServiceError } from "../domain/errors.js";
import { errorResponseBody } from "./rest/errors.js";

/**
 * The calls in flight, so that a stopping API finishes them before it closes its connections
 * (a call cut off after its write committed would answer a false error). Once `stop()` is called,
 * every new call, including one on a connection kept alive, is refused with 503
 * EXTERNAL_SERVICE_ERROR (nothing done, retry elsewhere), and every answer closes its connection.
 */
export function trackCalls() {
  let running = 0;
  let stopping = false;
  let idle: () => void = () => {};
  const whenIdle = new Promise<void>((resolve) => (idle = resolve));

  const middleware = createMiddleware(async (c, next) => {
    if (stopping) return refuse(c);
    running += 1;
    try {
      await next();
    } finally {
      running -= 1;
      if (stopping) {
        c.header("Connection", "close");
        if (running === 0) idle();
      }
    }
  });

  return {
    middleware,
    /** Refuses calls from now on; resolves once the calls already running have answered. */
    stop(): Promise<void> {
      stopping = true;
      if (running === 0) idle();
      return whenIdle;
    },
  };
}

function refuse(c: Context) {
  const { code, message } = new ExternalServiceError("The service is stopping; nothing was done. Retry the call.");
  c.header("Connection", "close");
  c.header("Retry-After", "1");
  if (c.req.path === "/graphql") return c.json({ errors: [{ message, extensions: { code } }] }, 503);
  return c.json(errorResponseBody(503, code, message), 503);
}
