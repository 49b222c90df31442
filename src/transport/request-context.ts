import { randomUUID } from "node:crypto";
import type { DomainContext } from "../domain/context.js";
import { authenticate, recordKeyUse, type AuthenticatedKey } from "../domain/keys/authenticate.js";
import { UnauthenticatedError } from "../domain/errors.js";
import { logger } from "../api-logger.js";
import { addressMeter, keyMeter, type Meter } from "./rate-limit.js";

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

const contexts = new WeakMap<Request, RequestContext>();

/** The call's context, made once per Request and shared by the middleware and handlers that see it. */
export function requestContext(request: Request): RequestContext {
  let context = contexts.get(request);
  if (context) return context;
  const requestId = requestIdOf(request);
  let key: Promise<AuthenticatedKey> | undefined;
  let domain: Promise<DomainContext> | undefined;
  const authenticated = () =>
    (key ??= authenticate(request.headers.get("x-api-key")).then(async (found) => {
      await recordKeyUse(found, new Date());
      return found;
    }));
  context = {
    requestId,
    key: authenticated,
    meter: () =>
      authenticated().then(keyMeter, (error: unknown) => {
        if (error instanceof UnauthenticatedError) return addressMeter(clientAddresses.get(request) ?? "local");
        throw error;
      }),
    domain: () =>
      (domain ??= authenticated().then(({ actor }) => ({
        actor,
        requestId,
        logger: logger.child({ requestId, keyPrefix: actor.keyPrefix }),
        now: () => new Date(),
      }))),
  };
  contexts.set(request, context);
  return context;
}
