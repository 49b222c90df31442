import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { Redis } from "ioredis";
import { createDatabase } from "../../prisma/create-database.js";
import { testEnv } from "../../vitest.config.js";

/** A clean slate per run: the test database recreated and migrated, the test Redis db flushed. */
export default async function setup() {
  await createDatabase(testEnv.DATABASE_URL, { recreate: true });
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: testEnv.DATABASE_URL },
    stdio: "pipe",
  });
  // Signing keys belong to the database they are published in.
  await rm(testEnv.WEBHOOK_SIGNING_KEY_DIR, { recursive: true, force: true });
  const redis = new Redis(testEnv.REDIS_URL);
  await redis.flushdb();
  await redis.quit();
}
