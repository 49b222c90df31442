import { loadApiConfig, type ApiConfig } from "../src/api/config.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/logger.js";
import { openRedis } from "../src/transport/redis.js";

/**
 * What the API's composition root (src/api/server.ts) makes, made once per test file from the test
 * environment (vitest.config.ts), so tests run the app as the process does.
 */
export const config = loadApiConfig();
export const logger = createLogger(config.log, "test");
let redis: ReturnType<typeof openRedis> | undefined;

/**
 * An app in this process; `graphql` overrides GraphiQL and introspection, and `server` the server's
 * settings (PUBLIC_URL), as the environment would.
 */
export function createTestApp(graphql: Partial<ApiConfig["graphql"]> = {}, server: Partial<ApiConfig["server"]> = {}) {
  redis ??= openRedis(config.redis.url, logger);
  return createApp({
    config: { ...config, graphql: { ...config.graphql, ...graphql }, server: { ...config.server, ...server } },
    logger,
    redis,
  });
}
