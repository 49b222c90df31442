import { randomUUID } from "node:crypto";
import type { DomainContext } from "../domain/context.js";
import { hashApiKey } from "../domain/keys/api-key.js";
import { recordKeyUse, type AuthenticatedKey } from "../domain/keys/authenticate.js";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.js";
import type { Logger } from "../logger.js";
import { authenticateConsoleCall, consoleSecretOf } from "./console-session.js";
import { authenticateKnown } from "./key-cache.js";
import { addressMeter, keyMeter, type Meter, type RateLimiter } from "./rate-limit.js";

const requestIds = new WeakMap<Request, string>();

/**
 * The id that the log lines, audit rows and webhooks of one call carry: the caller's
 * X-Request-Id (up to 100 characters), or a new one. The same Request always gets the same id.
 */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    id = request.headers.get("x-request-id")?.slice(0, 100) || randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

const clientAddresses = new WeakMap<Request, string>();

/** Records the address a call came from (the HTTP layer knows the socket). */
export function recordClientAddress(request: Request, address: string): void {
  clientAddresses.set(request, address);
}

/**
 * Hands a call's request id and client address on to a Request made from it (a streamed body
 * wrapped to be counted), so that the call keeps one id and is counted against its own address.
 */
export function carryOver(from: Request, to: Request): void {
  const id = requestIds.get(from);
  if (id) requestIds.set(to, id);
  const address = clientAddresses.get(from);
  if (address) clientAddresses.set(to, address);
}

/** The address a call came from; calls made in-process (tests) have none and count as "local". */
export const clientAddressOf = (request: Request): string => clientAddresses.get(request) ?? "local";

/**
 * What every transport knows about one HTTP call: its request id and, on first use, the API key
 * it was made with and the domain context of that key. Authentication is lazy so that GraphiQL
 * can load the schema without a key; every operation that touches data asks for the context.
 */
export interface RequestContext {
  requestId: string;
  key: () => Promise<AuthenticatedKey>;
  domain: () => Promise<DomainContext>;
  /** What the call's rate limit counts against: its key, or its client address when it has no valid key. */
  meter: () => Promise<Meter>;
}

/** The context of a call, made once per Request and shared by the middleware and handlers that see it. */
export type RequestContexts = (request: Request) => RequestContext;

const MAX_KEYS_REMEMBERED = 10_000;

/**
 * The contexts of one API process's calls, whose domain contexts log with `logger`. With
 * `consoleCookie` (GraphQL's), a call without X-Api-Key that carries that cookie is a merchant
 * console's (transport/console-session.ts).
 */
export function createRequestContexts(
  limiter: Pick<RateLimiter, "isSpent">,
  logger: Logger,
  consoleCookie?: string,
): RequestContexts {
  const contexts = new WeakMap<Request, RequestContext>();

  /**
   * The meter of each key lately seen, by the hash of the key as presented, so that a key past its
   * limit (isSpent) is refused without being looked up again: for the rest of that minute it answers
   * RATE_LIMIT_EXCEEDED, even if it was revoked or given a higher limit meanwhile. Bounded: the
   * oldest is forgotten first.
   */
  const meterOfKey = new Map<string, Meter>();

  function rememberMeter(keyHash: string, meter: Meter): Meter {
    meterOfKey.delete(keyHash);
    if (meterOfKey.size >= MAX_KEYS_REMEMBERED) meterOfKey.delete(meterOfKey.keys().next().value!);
    meterOfKey.set(keyHash, meter);
    return meter;
  }

  return function requestContext(request: Request): RequestContext {
    let context = contexts.get(request);
    if (context) return context;
    const requestId = requestIdOf(request);
    let key: Promise<AuthenticatedKey> | undefined;
    let domain: Promise<DomainContext> | undefined;
    // The key as presented, and its hash, worked out once for the call.
    const presented = request.headers.get("x-api-key");
    let presentedHash: string | null | undefined;
    const hashOfPresented = () => (presentedHash ??= presented && presented.length <= 200 ? hashApiKey(presented.trim()) : null);
    const sessionSecret = consoleCookie ? consoleSecretOf(request, consoleCookie) : undefined;
    const authenticated = () =>
      (key ??=
        sessionSecret !== undefined
          ? authenticateConsoleCall(request, sessionSecret)
          : authenticateKnown(presented, hashOfPresented()).then(async (found) => {
              await recordKeyUse(found, new Date());
              return found;
            }));
    context = {
      requestId,
      key: authenticated,
      meter: () => {
        const keyHash = hashOfPresented();
        const known = keyHash ? meterOfKey.get(keyHash) : undefined;
        if (known && limiter.isSpent(known)) return Promise.resolve(known);
        return authenticated().then(
          // A console session's meter is its own (no key was presented to remember it by).
          (found) => (keyHash ? rememberMeter(keyHash, keyMeter(found)) : keyMeter(found)),
          (error: unknown) => {
            // A console call refused for its CSRF token is charged too, to its address.
            if (error instanceof UnauthenticatedError || error instanceof ForbiddenError)
              return addressMeter(clientAddressOf(request));
            throw error;
          },
        );
      },
      domain: () =>
        (domain ??= authenticated().then(({ actor }) => {
          let callLogger: Logger | undefined;
          return {
            actor,
            requestId,
            // Made on first use: most calls log nothing of their own.
            get logger() {
              return (callLogger ??= logger.child({ requestId, keyPrefix: actor.keyPrefix }));
            },
            now: () => new Date(),
          };
        })),
    };
    contexts.set(request, context);
    return context;
  };
}
