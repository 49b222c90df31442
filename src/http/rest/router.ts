import type { Hono } from "hono";
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
    try {
      const ctx = await context.domain();
      const params = await readParams(c);
      return c.json(await route.handle(ctx, params));
    } catch (error) {
      const body = restError(error);
      if (body.statusCode >= 500) logger.error({ err: error, requestId: context.requestId }, "unexpected error in REST route");
      return c.json(body, body.statusCode as 400);
    }
  });
}
