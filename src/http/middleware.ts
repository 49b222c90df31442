import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { DomainContext } from "../domain/context.js";
import { RateLimitedError } from "../domain/errors.js";
import type { Logger } from "../logger.js";
import type { RateLimiter } from "../transport/rate-limit.js";
import { requestIdOf, type RequestContexts } from "../transport/request-context.js";
import { restError } from "./rest/errors.js";

/** What the middleware below leave on the Hono context for the handlers after them. */
export type AuthenticatedEnv = { Variables: { ctx: DomainContext } };

/** The middleware that make a call's caller known to the routes after them. */
export interface CallerMiddleware {
  /**
   * Charges the call (one per HTTP request) to its key's per-minute limit, or to its client
   * address when it has no valid key, so guessing keys is throttled too.
   */
  rateLimited: MiddlewareHandler;
  /** Resolves the caller's API key to its domain context (KEY_NOT_AUTHORIZED without one). */
  authenticated: MiddlewareHandler<AuthenticatedEnv>;
}

export function callerMiddleware(contexts: RequestContexts, limiter: RateLimiter): CallerMiddleware {
  return {
    rateLimited: createMiddleware(async (c, next) => {
      await limiter.charge(await contexts(c.req.raw).meter(), 1);
      await next();
    }),
    authenticated: createMiddleware<AuthenticatedEnv>(async (c, next) => {
      c.set("ctx", await contexts(c.req.raw).domain());
      await next();
    }),
  };
}

/**
 * Every error a route throws, as the contract's error body: a DomainError with its CODE and
 * status, an unreachable dependency as 503, anything else as a logged 500 that leaks nothing.
 */
export const errorRenderer =
  (logger: Logger): ErrorHandler =>
  (error, c: Context) => {
    const body = restError(error);
    if (error instanceof RateLimitedError) c.header("Retry-After", String(error.retryAfterSeconds));
    if (body.statusCode >= 500)
      logger.error({ err: error, requestId: requestIdOf(c.req.raw), path: c.req.path }, "request failed");
    return c.json(body, body.statusCode as 400);
  };
