import type { YogaInitialContext } from "graphql-yoga";
import type { RequestChangeFeed } from "../pubsub/request-changes.js";
import type { Links } from "../transport/links.js";
import type { RequestContext, RequestContexts } from "../transport/request-context.js";
import { callReads, type CallReads, type ReadYourWrites } from "../transport/read-your-writes.js";
import type { RequestDetails } from "../domain/requests/aggregate.js";
import type { TenantReadQueue, TenantReadLimits } from "./tenant-read-limit.js";
import { requestLoader } from "./request-loader.js";
import type { WebhookCallSettings } from "../domain/webhooks/call-settings.js";

/**
 * The caller (see RequestContext), the feed of request changes that subscriptions read, the
 * queue its tenant's reads wait in (graphql/tenant-read-limit.ts), where its reads
 * that may lag run (the dashboard's queries: `reads.domain()`, transport/read-your-writes.ts), and
 * its reader of requests reached from other types (graphql/request-loader.ts).
 */
export type GraphQLContext = RequestContext & {
  changes: RequestChangeFeed;
  tenantReads: TenantReadQueue;
  reads: CallReads;
  loadRequest: (requestId: string) => Promise<RequestDetails>;
  links: Links;
  webhooks: WebhookCallSettings;
};

export function graphQLContextFactory(
  changes: RequestChangeFeed,
  contexts: RequestContexts,
  links: Links,
  webhooks: WebhookCallSettings,
  tenantReadLimits: TenantReadLimits,
  routing?: ReadYourWrites,
) {
  return ({ request }: YogaInitialContext): GraphQLContext => {
    const context = contexts(request);
    const reads = callReads(context.domain, routing);
    return {
      ...context,
      changes,
      tenantReads: tenantReadLimits.forCall(context.domain),
      reads,
      loadRequest: requestLoader(() => reads.settled().database),
      links,
      webhooks,
    };
  };
}
