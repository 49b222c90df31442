import type { Context, Next } from "hono";

/** Nothing but the service itself: its stylesheets, its scripts, its own images and forms; no inline script. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The headers of every answer of the service's own pages (the pay page, the console), 304s
 * included: the policy above, no sniffing, no framing, and `referrer` as the page's Referrer-Policy.
 */
export const pageHeaders =
  (referrer: "same-origin" | "no-referrer") =>
  async (c: Context, next: Next): Promise<void> => {
    await next();
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", referrer);
    c.header("X-Frame-Options", "DENY");
  };
