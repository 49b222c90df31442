import type { YogaInitialContext } from "graphql-yoga";
import type { RequestChangeFeed } from "../pubsub/request-changes.js";
import type { Links } from "../transport/links.js";
import type { RequestContext, RequestContexts } from "../transport/request-context.js";
import type { RequestDetails } from "../domain/requests/aggregate.js";
import type { CallShare, DatabaseShares } from "./database-share.js";
import { requestLoader } from "./request-loader.js";

/**
 * The caller (see RequestContext), the feed of request changes that subscriptions read, the
 * share of the database its tenant's reads run under (graphql/database-share.ts), and its reader of requests reached
 * from other types (graphql/request-loader.ts).
 */
export type GraphQLContext = RequestContext & {
  changes: RequestChangeFeed;
  share: CallShare;
  loadRequest: (requestId: string) => Promise<RequestDetails>;
  links: Links;
};

export function graphQLContextFactory(
  changes: RequestChangeFeed,
  contexts: RequestContexts,
  links: Links,
  shares: DatabaseShares,
) {
  return ({ request }: YogaInitialContext): GraphQLContext => {
    const context = contexts(request);
    return {
      ...context,
      changes,
      share: shares.forCall(context.domain),
      loadRequest: requestLoader(),
      links,
    };
  };
}
