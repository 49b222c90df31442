import { closeDatabase, openDatabase } from "../src/db.js";
import { startWorker } from "./app.js";
import { workerConfig } from "./config.js";
import { logger } from "./logger.js";

openDatabase(workerConfig.db, logger);
const worker = await startWorker(workerConfig, logger.child({ component: "worker" }));

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker shutting down");
  await worker.close();
  await closeDatabase();
  logger.info("worker stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
