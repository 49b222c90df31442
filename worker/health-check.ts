/**
 * The worker container's health check (`node dist/worker/health-check.js`), an entry script of its
 * own: exits 0 when the worker's heartbeat file (WORKER_HEALTH_FILE) was written within three
 * beats, else 1, saying why.
 */
import { stat } from "node:fs/promises";
import { loadWorkerConfig } from "./config.js";
import { heartbeatMaxAgeMs } from "./heartbeat.js";

const { file, everyMs } = loadWorkerConfig().health;
if (!file) {
  console.error("WORKER_HEALTH_FILE is not set: the worker writes no heartbeat to check.");
  process.exit(1);
}
const written = await stat(file).then(
  (stats) => stats.mtimeMs,
  () => undefined,
);
const age = written === undefined ? undefined : Date.now() - written;
if (age === undefined || age > heartbeatMaxAgeMs(everyMs)) {
  console.error(
    age === undefined
      ? `no heartbeat at ${file}: the worker has not started, or PostgreSQL or Redis has not answered it yet`
      : `the heartbeat at ${file} is ${Math.round(age / 1000)} s old: the worker is stuck, stopped, or cannot reach PostgreSQL or Redis`,
  );
  process.exit(1);
}
