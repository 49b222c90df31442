import type { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { Links } from "../../transport/links.js";
import type { ReadYourWrites } from "../../transport/read-your-writes.js";
import type { CallerMiddleware } from "../middleware.js";
import type { RestEnv } from "./routes.js";
import { errorResponseBody } from "./errors.js";
import { idempotentWrites } from "./idempotency.js";
import { openApiDocument } from "./openapi.js";
import { staticAnswer } from "../static-answer.js";
import { readParams } from "./params.js";
import { routes } from "./routes.js";

/** Finds the dotted operation (404 for an unknown one) before anything else runs. */
const knownOperation = (links: Links) =>
  createMiddleware<RestEnv>(async (c, next) => {
    const operation = c.req.param("operation") ?? "";
    const route = routes[operation];
    if (!route) return c.json(errorResponseBody(404, "Not Found", `No operation ${operation}`), 404);
    c.set("route", route);
    c.set("operation", operation);
    c.set("links", links);
    await next();
  });

/** Merges the legacy parameters (query string and body) once, for the handler and the idempotency fingerprint. */
const legacyParams = createMiddleware<RestEnv>(async (c, next) => {
  const params = await readParams(c);
  c.set("params", c.var.route.input?.(params) ?? params);
  await next();
});

/**
 * Only writes take an Idempotency-Key. With a read replica, a write is noted once it has run,
 * whatever it came to, before it answers, so that the caller's later reads that may lag see it
 * (transport/read-your-writes.ts).
 */
const writes = (readYourWrites: ReadYourWrites | undefined) =>
  createMiddleware<RestEnv>(async (c, next) => {
    if (!c.var.route.write) return next();
    if (!readYourWrites) return idempotentWrites(c, next);
    try {
      return await idempotentWrites(c, next);
    } finally {
      await readYourWrites.wrote(c.var.ctx.actor);
    }
  });

/** Mounts the dotted legacy routes, GET and POST alike, and their OpenAPI document. */
export function mountRest(
  app: Hono,
  { rateLimited, authenticated }: CallerMiddleware,
  links: Links,
  readYourWrites?: ReadYourWrites,
) {
  const document = openApiDocument();
  // Compressed once, with an ETag to revalidate by (http/static-answer.ts).
  const documentAnswer = staticAnswer(() => ({ body: JSON.stringify(document), type: "application/json" }), "no-cache");
  app.get("/api/openapi.json", (c) => documentAnswer(c.req.raw));
  app.on(
    ["GET", "POST"],
    "/api/:operation{[a-z]+(\\.[a-z]+)+}",
    knownOperation(links),
    rateLimited,
    authenticated,
    legacyParams,
    writes(readYourWrites),
    async (c) => c.json(await c.var.route.handle(c.var.ctx, c.var.params, c.var.links)),
  );
}
