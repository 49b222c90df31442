import type { YogaInitialContext } from "graphql-yoga";
import { requestContext, type RequestContext } from "../http/request-context.js";

export type GraphQLContext = RequestContext;

export function createGraphQLContext({ request }: YogaInitialContext): GraphQLContext {
  return requestContext(request);
}
