import { loadApiConfig } from "../src/api/config.js";
import { createLogger } from "../src/logger.js";

/**
 * What the API's composition root (src/api/server.ts) reads and makes first, once per test file
 * from the test environment (vitest.config.ts). The app itself is test/test-app.ts's, so a file
 * that never calls it does not load the HTTP and GraphQL stack.
 */
export const config = loadApiConfig();
export const logger = createLogger(config.log, "test");
