import type { YogaInitialContext } from "graphql-yoga";
import type { LimitFunction } from "p-limit";
import type { RequestChangeFeed } from "../pubsub/request-changes.js";
import type { Links } from "../transport/links.js";
import type { RequestContext, RequestContexts } from "../transport/request-context.js";
import type { RequestDetails } from "../domain/requests/aggregate.js";
import { databaseShare } from "./database-share.js";
import { requestLoader } from "./request-loader.js";

/**
 * The caller (see RequestContext), the feed of request changes that subscriptions read, the
 * call's share of the database (graphql/database-share.ts), and its reader of requests reached
 * from other types (graphql/request-loader.ts).
 */
export type GraphQLContext = RequestContext & {
  changes: RequestChangeFeed;
  share: LimitFunction;
  loadRequest: (requestId: string) => Promise<RequestDetails>;
  links: Links;
};

export function graphQLContextFactory(changes: RequestChangeFeed, contexts: RequestContexts, links: Links) {
  return ({ request }: YogaInitialContext): GraphQLContext => ({
    ...contexts(request),
    changes,
    share: databaseShare(),
    loadRequest: requestLoader(),
    links,
  });
}
