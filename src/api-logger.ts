import { config } from "./config.js";
import { createLogger } from "./logger.js";

/** The API process's logger. */
export const logger = createLogger(config.log, "api");
