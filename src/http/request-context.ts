import { randomUUID } from "node:crypto";
import type { DomainContext } from "../domain/context.js";
import { authenticate } from "../domain/keys/authenticate.js";
import { logger } from "../logger.js";

/**
 * What every transport knows about one HTTP call: a request id for the logs and, on first use,
 * the domain context of the caller's API key. Authentication is lazy so that GraphiQL can load the
 * schema without a key; every operation that touches data asks for the context.
 */
export interface RequestContext {
  requestId: string;
  domain: () => Promise<DomainContext>;
}

export function requestContext(request: Request): RequestContext {
  const requestId = request.headers.get("x-request-id")?.slice(0, 100) || randomUUID();
  let domain: Promise<DomainContext> | undefined;
  return {
    requestId,
    domain: () =>
      (domain ??= authenticate(request.headers.get("x-api-key")).then((actor) => ({
        actor,
        requestId,
        logger: logger.child({ requestId, keyPrefix: "keyPrefix" in actor ? actor.keyPrefix : undefined }),
        now: () => new Date(),
      }))),
  };
}
