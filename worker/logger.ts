import { createLogger } from "../src/logger.js";
import { workerConfig } from "./config.js";

/** The worker process's logger. */
export const logger = createLogger(workerConfig.log, "worker");
