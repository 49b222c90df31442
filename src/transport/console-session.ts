import { timingSafeEqual } from "node:crypto";
import { sessionActor, sessionBySecret } from "../domain/console/sessions.js";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.js";
import type { AuthenticatedKey } from "../domain/keys/authenticate.js";

/**
 * How a call authenticates by a merchant console session instead of an API key. The cookie
 * (`payreq_console`, `__Host-payreq_console` when PUBLIC_URL is https: consoleCookieName) holds the
 * session's secret; since a browser sends it with any call to this origin, a call must also carry
 * the session's CSRF token in X-Console-Csrf, which no other site can read or set.
 */
export const consoleCookieName = (publicUrl: string) =>
  new URL(publicUrl).protocol === "https:" ? "__Host-payreq_console" : "payreq_console";

/** The value of the cookie `name` in the call's Cookie header, if it has one. */
export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The console session secret a call authenticates by: its cookie's, when it presents no API key (a
 * blank X-Api-Key is none). Every check of a console call asks this one question.
 */
export function consoleSecretOf(request: Request, cookie: string): string | undefined {
  if (request.headers.get("x-api-key")?.trim()) return undefined;
  return cookieValue(request, cookie);
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The session whose secret the call's cookie holds, as the key it acts as: a merchant key of its
 * merchant, metered on its own (`console:<session id>`). An ended or expired session is
 * KEY_NOT_AUTHORIZED; a call without the session's X-Console-Csrf is FORBIDDEN.
 */
export async function authenticateConsoleCall(request: Request, secret: string): Promise<AuthenticatedKey> {
  const now = new Date();
  const session = await sessionBySecret(secret, now);
  if (!session) throw new UnauthenticatedError("The console session has ended or expired: sign in again with a new link.");
  const csrf = request.headers.get("x-console-csrf");
  if (!csrf || !sameText(csrf, session.csrfToken))
    throw new ForbiddenError("FORBIDDEN", "A console call must carry its session's X-Console-Csrf header.");
  // Metered as the session itself: two sessions with one label (of two merchants) share nothing.
  return {
    actor: sessionActor(session),
    keyId: `console:${session.id}`,
    keyPrefix: `console:${session.id}`,
    rateLimitPerMinute: session.rateLimitPerMinute,
    lastUsedAt: now,
  };
}
