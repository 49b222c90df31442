/**
 * Setup of every test file: the file's process opens its database as the API and the worker do at
 * start (src/db.ts), on whatever DATABASE_URL the earlier setup left (test/setup/worker-database.ts),
 * and, as the CLI does, the Redis that key revocations are announced in. Files that share a
 * process (vitest.config.ts) share what the first of them opened.
 */
import { openDatabase } from "../../src/db.js";
import { openKeyRevocations } from "../../src/key-revocations.js";
import { createLogger } from "../../src/logger.js";

const OPENED = Symbol.for("payreq.test.opened-database");
const processState = globalThis as { [OPENED]?: true };

if (!processState[OPENED]) {
  openDatabase(
    {
      url: process.env["DATABASE_URL"]!,
      poolSize: Number(process.env["DATABASE_POOL_SIZE"] ?? 20),
      // The tests' own reads and setup wait for a connection as long as they need: with both runs of
      // `npm test` and the browser's keeping the cores busy, a handshake has taken over the service's 3 s.
      connectTimeoutMs: 30_000,
    },
    createLogger({ level: "silent" }),
  );
  openKeyRevocations({ kind: "single", url: process.env["REDIS_URL"]! });
  processState[OPENED] = true;
}
