/**
 * The merchant console's sign-in and session, on the API's port (the console's own screens are
 * the page's script, app/ bundled by scripts/start/console-bundle.js, calling /graphql with the
 * session's cookie: graphql/console-calls.ts).
 *
 *   GET  /console, /console/*   the console's page (its script reads GET /console/session)
 *   POST /console/sign-in/preview  whom a link's token signs in as, without opening it
 *   POST /console/sign-in       opens a sign-in link's token as a session: its cookie
 *   GET  /console/session       the session, with the CSRF token its calls carry (401: none)
 *   POST /console/sign-out      ends the session and clears its cookie
 *   GET  /console/assets/:file  the page's stylesheet and script (http/hashed-assets.ts)
 *
 * A sign-in link (`/console/sign-in#<token>`) keeps its token in the fragment, which no request,
 * log or Referer carries: the page's script posts it. Every answer carries a Content-Security-Policy
 * that allows nothing from elsewhere and no inline script.
 */
import type { Context, Hono, Next } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import {
  endSessionBySecret,
  openConsoleSession,
  previewConsoleLink,
  sessionBySecret,
  SESSION_MS,
  type ConsoleSession,
} from "../../domain/console/sessions.js";
import { isDomainError, UnauthenticatedError } from "../../domain/errors.js";
import { httpStatusOf } from "../../transport/http-status.js";
import type { RateLimiter } from "../../transport/rate-limit.js";
import { loadHashedAssets } from "../hashed-assets.js";
import { pageHeaders } from "../page-headers.js";
import { chargedToAddress } from "../pay/payer.js";
import { consolePage } from "./page.js";

/** Every answer: the pages' headers (http/page-headers.ts), and nothing kept by a cache unless it says so. */
const consoleHeaders = async (c: Context, next: Next) => {
  await pageHeaders("no-referrer")(c, next);
  if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
};

export interface ConsoleParts {
  limiter: RateLimiter;
  /** PUBLIC_URL: a sign-in and a sign-out come from its origin; over https the cookie is `__Host-` and Secure. */
  publicUrl: string;
  /** The session cookie's name (transport/console-session.ts). */
  cookie: string;
}

const sessionView = (session: ConsoleSession) => ({
  merchantId: session.merchantId,
  merchantName: session.merchantName,
  label: session.label,
  readOnly: session.readOnly,
  csrfToken: session.csrfToken,
  idleExpiresAt: session.idleExpiresAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
});

const refusal = (c: Context, error: unknown) => {
  if (!isDomainError(error)) throw error;
  return c.json({ code: error.code, message: error.message }, httpStatusOf(error.code) as 401);
};

export function mountConsole(app: Hono, { limiter, publicUrl, cookie }: ConsoleParts) {
  const origin = new URL(publicUrl).origin;
  const secure = origin.startsWith("https:");
  // hono names a `host`-prefixed cookie `__Host-<name>` itself.
  const cookieName = cookie.replace(/^__Host-/, "");
  const cookieOptions: CookieOptions = {
    path: "/",
    httpOnly: true,
    sameSite: "Strict",
    secure,
    ...(secure && { prefix: "host" }),
  };
  const secretOf = (c: Context) => getCookie(c, cookieName, secure ? "host" : undefined);
  /** A sign-in or sign-out from another site (or no Origin at all) changes nothing. */
  const fromConsole = async (c: Context, next: Next) =>
    c.req.header("origin") === origin
      ? next()
      : c.json({ code: "FORBIDDEN", message: "This must come from the console's own page." }, 403);

  app.use("/console", consoleHeaders);
  app.use("/console/*", consoleHeaders);
  const assets = loadHashedAssets("src/generated/console", "/console/assets", {
    stylesheet: { name: "console", extension: "css", type: "text/css; charset=utf-8" },
    script: { name: "console", extension: "js", type: "text/javascript; charset=utf-8" },
  });
  app.get("/console/assets/:file", async (c) => (await assets.answer(c.req.param("file"), c.req.raw)) ?? c.notFound());
  // Every other call is charged to the caller's address, as the pay page's are: the sign-in's guesses too.
  app.on(
    ["GET", "POST"],
    ["/console", "/console/sign-in", "/console/sign-in/preview", "/console/session", "/console/sign-out"],
    chargedToAddress(limiter),
  );

  const tokenOf = async (c: Context) => {
    const body = (await c.req.json().catch(() => null)) as { token?: unknown } | null;
    return typeof body?.token === "string" ? body.token : "";
  };

  app.post("/console/sign-in/preview", fromConsole, async (c) => {
    try {
      const link = await previewConsoleLink(await tokenOf(c), new Date());
      return c.json({ ...link, expiresAt: link.expiresAt.toISOString() });
    } catch (error) {
      return refusal(c, error);
    }
  });

  app.post("/console/sign-in", fromConsole, async (c) => {
    const token = await tokenOf(c);
    try {
      const { secret, session } = await openConsoleSession(token, new Date());
      setCookie(c, cookieName, secret, { ...cookieOptions, maxAge: Math.floor(SESSION_MS / 1000) });
      return c.json(sessionView(session));
    } catch (error) {
      return refusal(c, error);
    }
  });

  app.get("/console/session", async (c) => {
    const session = await sessionBySecret(secretOf(c), new Date());
    if (!session) return refusal(c, new UnauthenticatedError("No console session: open a sign-in link."));
    return c.json(sessionView(session));
  });

  app.post("/console/sign-out", fromConsole, async (c) => {
    await endSessionBySecret(secretOf(c), new Date());
    deleteCookie(c, cookieName, cookieOptions);
    return c.json({ signedOut: true });
  });

  const page = consolePage(assets.hrefs);
  app.get("/console", (c) => c.html(page));
  app.get("/console/*", (c) => c.html(page));
}
