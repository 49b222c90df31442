import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma6/config";
import { loadEnvFile } from "../../src/env-file.js";

// The migration step's configuration, for Prisma 6.19's CLI (installed as `prisma6`): Prisma 7's CLI
// needs a native schema engine it cannot download here, 6.19's runs its WebAssembly engine offline
// through the pg adapter. The settings file is read as every entry point reads it (variables
// already set win); the default URL matches src/env.ts. Migrations hold a session advisory lock, so
// they run on DATABASE_DIRECT_URL when set (DATABASE_URL may name a transaction-mode pooler).
loadEnvFile();
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/payreq";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  migrations: { path: "../migrations" },
  async adapter() {
    // An idle pool must not hold the CLI open once its work is done (pg keeps idle connections 10 s).
    return new PrismaPg({
      connectionString: process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL!,
      allowExitOnIdle: true,
    });
  },
});
