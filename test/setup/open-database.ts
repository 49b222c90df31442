/**
 * Setup of every test file: the file's process opens its database as the API and the worker do at
 * start (src/db.ts), on whatever DATABASE_URL the earlier setup left (test/setup/worker-database.ts),
 * and, as the CLI does, the Redis that key revocations are announced in.
 */
import { openDatabase } from "../../src/db.js";
import { openKeyRevocations } from "../../src/key-revocations.js";
import { createLogger } from "../../src/logger.js";

openDatabase({ url: process.env["DATABASE_URL"]!, poolSize: 20 }, createLogger({ level: "silent" }));
openKeyRevocations(process.env["REDIS_URL"]!);
