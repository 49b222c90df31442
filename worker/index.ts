import { db, pool } from "../src/db.js";
import { logger } from "../src/logger.js";
import { startWorker } from "./app.js";
import { workerConfig } from "./config.js";

const worker = await startWorker(workerConfig);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker shutting down");
  await worker.close();
  await db.$disconnect();
  await pool.end();
  logger.info("worker stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
