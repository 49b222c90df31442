import type { Hono } from "hono";
import { DomainError, RateLimitedError } from "../../domain/errors.js";
import { fingerprintOf, withIdempotency } from "../../domain/idempotency.js";
import { logger } from "../../logger.js";
import { requestContext } from "../request-context.js";
import { errorResponseBody, restError } from "./errors.js";
import { openApiDocument } from "./openapi.js";
import { readParams } from "./params.js";
import { routes } from "./routes.js";

/** Mounts the dotted legacy routes, GET and POST alike, and their OpenAPI document. */
export function mountRest(app: Hono) {
  const document = openApiDocument();
  app.get("/api/openapi.json", (c) => c.json(document));

  app.on(["GET", "POST"], "/api/:operation{[a-z]+(\\.[a-z]+)+}", async (c) => {
    const route = routes[c.req.param("operation")];
    if (!route) return c.json(errorResponseBody(404, "Not Found", `No operation ${c.req.param("operation")}`), 404);
    const context = requestContext(c.req.raw);
    const operation = c.req.param("operation");
    try {
      const ctx = await context.domain();
      const params = await readParams(c);
      const idempotencyKey = route.write ? c.req.header("idempotency-key") : undefined;
      if (idempotencyKey === undefined) return c.json(await route.handle(ctx, params));

      // The first outcome, errors included, is stored and replayed; unexpected errors are not kept.
      const { outcome, replayed } = await withIdempotency(
        ctx.actor,
        idempotencyKey,
        fingerprintOf(operation, params),
        async () => {
          try {
            return { status: 200, body: await route.handle(ctx, params) };
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            const body = restError(error);
            return { status: body.statusCode, body };
          }
        },
      );
      if (replayed) c.header("Idempotent-Replayed", "true");
      return c.json(outcome.body as object, outcome.status as 200);
    } catch (error) {
      const body = restError(error);
      if (error instanceof RateLimitedError) c.header("Retry-After", String(error.retryAfterSeconds));
      if (body.statusCode >= 500) logger.error({ err: error, requestId: context.requestId }, "unexpected error in REST route");
      return c.json(body, body.statusCode as 400);
    }
  });
}
