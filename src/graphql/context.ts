import type { YogaInitialContext } from "graphql-yoga";
import type { RequestChangeFeed } from "../pubsub/request-changes.js";
import { requestContext, type RequestContext } from "../transport/request-context.js";

/** The caller (see RequestContext), and the feed of request changes that subscriptions read. */
export type GraphQLContext = RequestContext & { changes: RequestChangeFeed };

export function graphQLContextFactory(changes: RequestChangeFeed) {
  return ({ request }: YogaInitialContext): GraphQLContext => ({ ...requestContext(request), changes });
}
