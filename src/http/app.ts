import { Hono } from "hono";
import { createGraphQLHandler } from "../graphql/yoga.js";
import { mountRest } from "./rest/router.js";

/** The API as a fetch handler: /graphql for GraphQL (GraphiQL in a browser), /api/* for the dotted routes. */
export function createApp() {
  const yoga = createGraphQLHandler();
  const app = new Hono();

  app.on(["GET", "POST", "OPTIONS"], "/graphql", (c) => yoga.fetch(c.req.raw));
  app.get("/health", (c) => c.json({ status: "ok" }));
  mountRest(app);
  app.notFound((c) =>
    c.json({ statusCode: 404, error: "Not Found", message: "Not Found", reason: `No route ${c.req.method} ${c.req.path}` }, 404),
  );

  return { fetch: app.fetch, dispose: () => yoga.dispose() };
}

export type App = ReturnType<typeof createApp>;
