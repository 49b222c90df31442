import type { YogaInitialContext } from "graphql-yoga";
import type { LimitFunction } from "p-limit";
import type { RequestChangeFeed } from "../pubsub/request-changes.js";
import { requestContext, type RequestContext } from "../transport/request-context.js";
import { databaseShare } from "./database-share.js";

/**
 * The caller (see RequestContext), the feed of request changes that subscriptions read, and the
 * call's share of the database (graphql/database-share.ts).
 */
export type GraphQLContext = RequestContext & { changes: RequestChangeFeed; share: LimitFunction };

export function graphQLContextFactory(changes: RequestChangeFeed) {
  return ({ request }: YogaInitialContext): GraphQLContext => ({ ...requestContext(request), changes, share: databaseShare() });
}
