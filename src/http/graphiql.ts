import type { Context, Next } from "hono";
import { shouldRenderGraphiQL } from "graphql-yoga";
import { staticAnswer } from "./static-answer.js";

/** GraphiQL's title, and the header it offers to fill in. */
const OPTIONS = { title: "Payment requests", headers: JSON.stringify({ "X-Api-Key": "" }) };

/**
 * GraphiQL, for a browser that asks /graphql for a page (a GET accepting text/html, as Yoga tells
 * them apart); mounted only when GraphiQL is on (GRAPHIQL, off in production). Its scripts and
 * styles are served inline by the service itself: no request leaves the machine. They are 9 MB of
 * JavaScript source (30 MiB of heap once loaded), so the page's module is loaded by the first
 * request for it, never by a process that has GraphiQL off. The page is the same for the life of
 * the process, so it is rendered once and compressed once per encoding (2.4 MB gzip, 1.9 MB
 * brotli), and revalidated by its ETag at each visit (`no-cache`): a 304 when nothing changed.
 */
export function graphiqlPage() {
  const page = staticAnswer(
    () =>
      import("@graphql-yoga/render-graphiql").then(({ renderGraphiQL }) => ({
        body: renderGraphiQL(OPTIONS),
        type: "text/html",
      })),
    "no-cache",
  );
  return (c: Context, next: Next) => (shouldRenderGraphiQL(c.req.raw) ? page(c.req.raw) : next());
}
