import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";

/** The page's cookie; the payment form carries the same token back. */
const CSRF_COOKIE = "payreq_pay_csrf";

/** The form's token: the page's cookie (kept across the page's tabs), made on the first visit. */
export function csrfToken(c: Context, secure: boolean): string {
  const existing = getCookie(c, CSRF_COOKIE);
  if (existing && /^[\w-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString("base64url");
  setCookie(c, CSRF_COOKIE, token, { path: "/pay", httpOnly: true, sameSite: "Strict", secure, maxAge: 24 * 3600 });
  return token;
}

/** Whether a posted form carries the token of the page's cookie. */
export function carriesToken(c: Context, form: Record<string, string>): boolean {
  const cookie = getCookie(c, CSRF_COOKIE);
  return Boolean(cookie) && form["csrf"] === cookie;
}

/**
 * A browser says where a post comes from (Sec-Fetch-Site, which no page can set): the pay page
 * itself, or another site, refused before anything is read. A browser that does not say is judged
 * by the origin it names. A same-site cookie would not come along with a cross-site post anyway.
 */
export function sameSite(c: Context, publicOrigin: string): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site === "same-origin") return true;
  if (site && site !== "none") return false;
  const origin = c.req.header("origin");
  if (origin === undefined) return true;
  const host = c.req.header("host");
  return origin === publicOrigin || (host !== undefined && URL.parse(origin)?.host === host);
}
