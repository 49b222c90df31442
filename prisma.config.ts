import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { loadEnvFile } from "./src/env-file.js";

// Prisma does not read .env when it has a config file; the settings file is read here as every
// entry point reads it (variables already set win). The CLI runs offline through the WebAssembly
// schema engine and the pg adapter (Prisma 6.19.3: Prisma 7 dropped that engine). The default URL
// matches src/env.ts.
loadEnvFile();
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/payreq";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL! });
  },
});
