import type { ApiConfig } from "../src/api/config.js";
import { createApp } from "../src/http/app.js";
import { openRedis } from "../src/transport/redis.js";
import { config, logger } from "./api-parts.js";

let redis: ReturnType<typeof openRedis> | undefined;

/**
 * An app in this process; `graphql` overrides GraphiQL and introspection, and `server` the server's
 * settings (PUBLIC_URL), as the environment would.
 */
export function createTestApp(graphql: Partial<ApiConfig["graphql"]> = {}, server: Partial<ApiConfig["server"]> = {}) {
  redis ??= openRedis(config.redis, logger);
  return createApp({
    config: { ...config, graphql: { ...config.graphql, ...graphql }, server: { ...config.server, ...server } },
    logger,
    redis,
  });
}
