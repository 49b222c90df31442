import type { YogaInitialContext } from "graphql-yoga";
import { requestContext, type RequestContext } from "../http/request-context.js";

/** The caller, and a signal that aborts when the client goes away (ends subscriptions). */
export type GraphQLContext = RequestContext & { signal: AbortSignal };

export function createGraphQLContext({ request }: YogaInitialContext): GraphQLContext {
  return { ...requestContext(request), signal: request.signal };
}
