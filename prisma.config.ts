import { defineConfig } from "prisma/config";
import { loadEnvFile } from "./src/env-file.js";

loadEnvFile();
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/payreq";

export default defineConfig({
  schema: "prisma/schema.prisma",
  datasource: { url: process.env.DATABASE_URL },
});
